import { z } from 'zod';
import { DefaultLevel, Level, parentTitle } from './fields.js';
import { nullish } from '../model/schema.js';
import type { Patch, Ref } from '../model/change.js';
import type { DefaultLevel as AccessLevel } from '../model/kinds.js';
import type { SpaceFacetValues } from './space-facets.js';
import type { ApiCall, KindModule, Lookup } from './types.js';
import type { KindExamples } from './examples.js';

export type SpaceOp =
  | { type: 'update-space'; spaceId: string; patch: Patch }
  | { type: 'move-space'; spaceId: string; parent: Ref | null };

const Answer = z.looseObject({
  id: z.string(),
  title: z.string(),
  emoji: nullish(z.string()),
  editMode: nullish(z.enum(['live', 'locked'])),
  defaultLevel: nullish(Level),
  parent: nullish(z.string()),
});
type Answer = z.infer<typeof Answer>;

export type DesiredSpace = SpaceFacetValues & {
  id: string;
  title?: string;
  emoji?: string;
  editMode?: 'live' | 'locked';
  defaultLevel?: AccessLevel;
  /** Title of the parent collection, or null for the organization's top level. */
  parent?: string | null;
};

export type LiveSpace = SpaceFacetValues & {
  id: string;
  title?: string;
  emoji?: string | null;
  editMode?: 'live' | 'locked' | null;
  defaultLevel?: AccessLevel;
  /** Parent collection id, or null. */
  parent?: string | null;
};

/** One entry of `spaces` in a config file, without the facets' keys (the registry adds them). */
const Config = z.strictObject({
  id: z.string().min(1).describe('Id of an existing space.'),
  title: z.string().min(1).max(50).optional(),
  emoji: z.string().min(1).max(50).optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: DefaultLevel.optional(),
  parent: parentTitle('Title of the parent collection (in collections), or null for the top level.'),
});

const ROUTE = '/spaces/{space}';

/** One space: the read of an existing space, and how a reference to one is proven. */
const getSpace = (space: string): ApiCall => ({
  method: 'GET',
  route: ROUTE,
  params: { space },
  expect: [200],
  answer: Answer,
});
export const spaceAddress = (org: string, space: string) => `${org}/spaces/${space}`;

/**
 * An existing space's own fields and place; docsync never creates or deletes spaces. Its diff is
 * part of the organization's tree (src/kinds/collection.ts), its facets are modules of their own.
 */
export const spaceKind = {
  kind: 'space',
  config: Config,
  /** Whether an entry manages the space's own fields or place (one GET of the space). */
  managesFields: (s: DesiredSpace): boolean =>
    s.title !== undefined ||
    s.emoji !== undefined ||
    s.editMode !== undefined ||
    s.defaultLevel !== undefined ||
    s.parent !== undefined,
  /** References name existing spaces by id: the API cannot list an organization's spaces, one GET each. */
  lookup: {
    target: 'space',
    noun: 'space',
    get: { call: getSpace },
  } satisfies Lookup,
  read: {
    call: getSpace,
    live: (s: Answer): LiveSpace => ({
      id: s.id,
      title: s.title,
      emoji: s.emoji ?? null,
      editMode: s.editMode ?? null,
      defaultLevel: s.defaultLevel ?? null,
      parent: s.parent ?? null,
    }),
  },
  /** One space's reads (its own fields, its facets) as one live space. */
  merge: (values: LiveSpace[] | undefined, details: LiveSpace[] | undefined): LiveSpace[] | undefined => {
    if (!values && !details) return undefined;
    const byId = new Map<string, LiveSpace>();
    for (const s of [...(values ?? []), ...(details ?? [])]) {
      const prev = byId.get(s.id);
      byId.set(s.id, prev ? { ...prev, ...s } : s);
    }
    return [...byId.values()];
  },
  ops: {
    'update-space': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { space: op.spaceId },
        body: r.patch(op.patch),
        expect: [200],
        answer: Answer,
      }),
    },
    'move-space': {
      call: (op, r) => ({
        method: 'POST',
        route: '/spaces/{space}/move',
        params: { space: op.spaceId },
        body: { parent: op.parent ? r.ref(op.parent) : null },
        expect: [200],
      }),
    },
  },
  examples: {
    // Spaces exist beforehand (docsync never creates one): a pair names one of the organization's.
    pairs: [
      {
        config: { id: 'space_1', title: 'Getting started' },
        seed: { id: 'space_1', title: 'Getting started' },
        changed: { id: 'space_1', title: 'Start here' },
      },
      {
        config: { id: 'space_2', emoji: '🚀' },
        seed: { id: 'space_2', title: 'Space 2', emoji: '🚀' },
        changed: { id: 'space_2', emoji: '📘', editMode: 'locked' },
      },
    ],
  } satisfies KindExamples<z.infer<typeof Config>>,
} satisfies KindModule<SpaceOp, 'space'> & Record<string, unknown>;
