import type { DiffContext } from '../diff/context.js';
import type { DesiredGrant, LiveGrant } from '../model/grants.js';
import type { DesiredCollection, LiveCollection } from './collection-diff.js';
import {
  ACCESS_DESCRIBE,
  AccessConfig,
  exportAccess,
  grantLists,
  grantOps,
  grantReferences,
  liveGrants,
  normalizeAccess,
  type GrantOp,
  type GrantRoutes,
  holderRef,
} from './grants.js';
import { diffGrants } from './grants-diff.js';
import type { EntryReference, KindModule } from './types.js';
import type { KindExamples } from './examples.js';

/**
 * The grants of a collection: a key of its entry (`collections[].access`), today's API only. Part
 * of the organization's tree (src/kinds/collection.ts reads, diffs and exports it with the
 * collections): a collection the plan creates is granted after its creation.
 */

export type CollectionGrantOp = GrantOp<'collection'>;

const ROUTES: GrantRoutes = {
  invite: '/collections/{holder}/permissions',
  teams: '/collections/{holder}/permissions/teams',
  team: '/collections/{holder}/permissions/teams/{team}',
  users: '/collections/{holder}/permissions/users',
  user: '/collections/{holder}/permissions/users/{user}',
};

/** The live collection a desired one pairs with: by pinned id, title, or an earlier title. */
const pairOf = (d: DesiredCollection, live: readonly LiveCollection[]): LiveCollection | undefined =>
  d.id !== undefined
    ? live.find((l) => l.id === d.id)
    : (live.find((l) => l.title === d.title) ?? live.find((l) => (d.previously ?? []).includes(l.title)));

export const collectionGrantKind = {
  kind: 'collection-grant',
  key: 'access',
  config: AccessConfig,
  describe: ACCESS_DESCRIBE,
  note: 'Grants (`access`, today’s API): as a space’s; a collection the plan creates is granted after its creation. Two lists are read per collection whose `access` is given.',
  normalize: normalizeAccess,
  references: (c: DesiredCollection): EntryReference[] =>
    c.access ? grantReferences(c.access, `collection "${c.title}"`) : [],
  absentIn: ['seed'],
  absent: (caps: { flavor: string }) =>
    `grants (access) are not in this API (--api-flavor ${caps.flavor}): remove collections[].access or use --api-flavor current`,
  /** The live collections whose grants are read: those the config's `access` names (all, for export). */
  wanted: (desired: readonly DesiredCollection[] | undefined, l: LiveCollection): boolean =>
    desired === undefined || desired.some((d) => d.access !== undefined && pairOf(d, [l]) === l),
  read: {
    lists: (collection: string) => grantLists(ROUTES, '', collection),
    live: (answers: unknown[][]): LiveGrant[] => liveGrants(answers),
  },
  /** After the tree's diff: a created collection is known by its creation's key. */
  diff: (ctx: DiffContext, desired: readonly DesiredCollection[], live: readonly LiveCollection[]): void => {
    for (const d of desired) {
      if (d.access === undefined) continue;
      const l = pairOf(d, live);
      const address = `${ctx.org}/collections/${d.title}`;
      const createKey = l ? undefined : `create:${address}`;
      if (createKey && !ctx.drafts.drafts.some((x) => x.key === createKey)) continue;
      diffGrants(ctx, 'collection-grant', {
        target: 'collection',
        label: `collection "${d.title}"`,
        ref: holderRef(l?.id, createKey),
        address,
        createKey,
        desired: d.access,
        live: l?.access ?? [],
      });
    }
  },
  export: (live: LiveGrant[] | undefined) => (live && live.length > 0 ? exportAccess(live) : undefined),
  ops: grantOps('collection', ROUTES),
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: [{ team: 'Docs Writers', role: 'comment' }],
        seed: { access: [{ team: 'Docs Writers', role: 'comment' }] },
        changed: [{ team: 'Docs Writers', role: 'review' }],
      },
    ],
    needs: { config: { teams: [{ title: 'Docs Writers' }] }, seed: { teams: [{ title: 'Docs Writers' }] } },
  } satisfies KindExamples<AccessConfig>,
} satisfies KindModule<CollectionGrantOp, 'collection-grant'> & Record<string, unknown>;

export type { DesiredGrant };
