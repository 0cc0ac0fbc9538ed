import { Team } from '../api/schema.js';
import type { Ref } from '../model/change.js';
import { deleteCall, idOutput, type KindModule } from './types.js';

export type TeamOp =
  | { type: 'create-team'; org: string; title: string }
  | { type: 'update-team'; org: string; team: Ref; title: string }
  | { type: 'delete-team'; org: string; team: Ref };

const LIST = '/orgs/{org}/teams';
const ROUTE = `${LIST}/{team}`;

/** A team of an organization, by title (or pinned id). */
export const teamKind: KindModule<TeamOp> = {
  kind: 'team',
  ops: {
    'create-team': {
      call: (op) => ({
        method: 'PUT',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title },
        expect: [200, 201],
        answer: Team,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: Team }),
        find: (t: Team, op) => t.title === op.title,
        output: idOutput,
      },
    },
    'update-team': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, team: r.ref(op.team) },
        body: { title: op.title },
        expect: [200],
        answer: Team,
      }),
    },
    'delete-team': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, team: r.ref(op.team) }, caps),
    },
  },
};
