import type { z } from 'zod';
import { Collection } from '../api/schema.js';
import type { Patch, Ref } from '../model/change.js';
import { deleteCall, idOutput, type KindModule } from './types.js';

export type CollectionOp =
  | { type: 'create-collection'; org: string; title: string; parent?: Ref }
  | { type: 'update-collection'; collection: Ref; patch: Patch }
  | { type: 'move-collection'; collection: Ref; parent: Ref | null }
  | { type: 'delete-collection'; collection: Ref };

const LIST = '/orgs/{org}/collections';
const ROUTE = '/collections/{collection}';

/** A collection of spaces, by title (or pinned id), in a tree. */
export const collectionKind: KindModule<CollectionOp> = {
  kind: 'collection',
  ops: {
    'create-collection': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title, ...(op.parent ? { parent: r.ref(op.parent) } : {}) },
        expect: [201],
        answer: Collection,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: Collection, nested: true }),
        find: (c: z.infer<typeof Collection>, op, r) =>
          c.title === op.title && (c.parent ?? null) === (op.parent ? r.ref(op.parent) : null),
        output: idOutput,
      },
    },
    'update-collection': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { collection: r.ref(op.collection) },
        body: r.patch(op.patch),
        expect: [200],
        answer: Collection,
      }),
    },
    'move-collection': {
      call: (op, r) => ({
        method: 'POST',
        route: '/collections/{collection}/move',
        params: { collection: r.ref(op.collection) },
        body: { parent: op.parent ? r.ref(op.parent) : null },
        expect: [200],
      }),
    },
    'delete-collection': {
      call: (op, r, caps) => deleteCall(ROUTE, { collection: r.ref(op.collection) }, caps),
    },
  },
};
