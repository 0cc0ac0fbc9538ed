import { Member } from '../api/schema.js';
import type { KindModule } from './types.js';

export type MemberOp =
  | { type: 'update-member'; org: string; userId: string; role: string | null }
  | { type: 'remove-member'; org: string; userId: string };

const ROUTE = '/orgs/{org}/members/{user}';

/** The role of an organization member, by user; docsync never invites. */
export const memberKind: KindModule<MemberOp> = {
  kind: 'member',
  ops: {
    'update-member': {
      call: (op) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, user: op.userId },
        body: { role: op.role },
        expect: [200],
        answer: Member,
      }),
    },
    'remove-member': {
      call: (op, _r, caps) => ({
        method: 'DELETE',
        route: ROUTE,
        params: { org: op.org, user: op.userId },
        expect: caps.deleteAnswers,
      }),
    },
  },
};
