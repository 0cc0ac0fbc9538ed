import type { DiffContext } from '../diff/context.js';
import { liveRef } from '../diff/draft.js';
import type { DesiredGrant } from '../model/grants.js';
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
} from './grants.js';
import { diffGrants } from './grants-diff.js';
import type { SpaceFacet } from './value-shapes.js';
import type { KindExamples } from './examples.js';

/** The grants of an existing space: a facet of its entry (`spaces[].access`), today's API only. */

export type SpaceGrantOp = GrantOp<'space'>;

const ROUTES: GrantRoutes = {
  invite: '/spaces/{holder}/permissions',
  teams: '/spaces/{holder}/permissions/teams',
  team: '/spaces/{holder}/permissions/teams/{team}',
  users: '/spaces/{holder}/permissions/users',
  user: '/spaces/{holder}/permissions/users/{user}',
};

export const spaceGrantKind: SpaceFacet<'access', AccessConfig, DesiredGrant[], SpaceGrantOp, 'space-grant'> =
  {
    kind: 'space-grant',
    key: 'access',
    config: AccessConfig,
    describe: ACCESS_DESCRIBE,
    doc: {
      note: 'Grants (`access`, today’s API): each team (by title) or member (by e-mail) listed gets its role on the space; one listed with another role is changed; a live grant the list omits is revoked when pruning, except the token’s own. Two lists are read per space whose `access` is given (team and user grants).',
      example: [{ team: 'Docs Writers', role: 'edit' }],
    },
    normalize: normalizeAccess,
    check: () => undefined,
    needsSelf: true,
    diffPhase: 'last',
    references: (grants, space) => grantReferences(grants, `space ${space}`),
    absentIn: ['seed'],
    absent: (caps) =>
      `grants (access) are not in this API (--api-flavor ${caps.flavor}): remove spaces[].access or use --api-flavor current`,
    read: (space) => ({ lists: grantLists(ROUTES, '', space) }),
    live: (answers: unknown[][]) => liveGrants(answers),
    diff: (ctx: DiffContext, desired, live) => {
      for (const d of desired)
        diffGrants(ctx, 'space-grant', {
          target: 'space',
          label: `space ${d.id}`,
          ref: liveRef(d.id),
          address: `${ctx.org}/spaces/${d.id}`,
          desired: d.value,
          live: live.get(d.id) ?? [],
        });
    },
    export: (grants) => (grants && grants.length > 0 ? exportAccess(grants) : undefined),
    ops: grantOps('space', ROUTES),
    examples: {
      flavor: 'current',
      pairs: [
        {
          config: [
            { team: 'Docs Writers', role: 'edit' },
            { member: 'ann@example.com', role: 'read' },
          ],
          seed: {
            access: [
              { team: 'Docs Writers', role: 'edit' },
              { member: 'ann@example.com', role: 'read' },
            ],
          },
          changed: [
            { team: 'Docs Writers', role: 'admin' },
            { member: 'ann@example.com', role: 'read' },
          ],
        },
      ],
      needs: {
        // The team is declared (a random config that manages teams keeps it); the member is looked up.
        config: { teams: [{ title: 'Docs Writers' }] },
        seed: {
          teams: [{ title: 'Docs Writers' }],
          members: [{ id: 'user_ann', email: 'ann@example.com', role: 'read' }],
        },
      },
    } satisfies KindExamples<AccessConfig>,
  };
