import { Space } from '../api/schema.js';
import type { Patch, Ref } from '../model/change.js';
import type { KindModule } from './types.js';

export type SpaceOp =
  | { type: 'update-space'; spaceId: string; patch: Patch }
  | { type: 'move-space'; spaceId: string; parent: Ref | null };

const ROUTE = '/spaces/{space}';

/** An existing space's own fields and place; docsync never creates or deletes spaces. */
export const spaceKind: KindModule<SpaceOp> = {
  kind: 'space',
  ops: {
    'update-space': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { space: op.spaceId },
        body: r.patch(op.patch),
        expect: [200],
        answer: Space,
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
};
