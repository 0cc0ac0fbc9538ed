import type { Ref } from '../model/change.js';
import type { TeamRole } from '../model/kinds.js';
import type { KindModule } from './types.js';

export type TeamMembersOp = {
  type: 'set-team-members';
  org: string;
  team: Ref;
  add: string[];
  remove: string[];
  memberships: Record<string, { role: TeamRole }>;
};

/** The full membership of a team: one call adds, removes and sets roles. */
export const teamMembersKind: KindModule<TeamMembersOp> = {
  kind: 'team-members',
  ops: {
    'set-team-members': {
      call: (op, r) => ({
        method: 'PUT',
        route: '/orgs/{org}/teams/{team}/members',
        params: { org: op.org, team: r.ref(op.team) },
        body: { add: op.add, remove: op.remove, memberships: op.memberships },
        expect: [200, 204],
      }),
    },
  },
};
