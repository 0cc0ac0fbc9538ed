import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../api/client.js';
import { ApiError, type ApiErrorCode } from '../api/errors.js';
import type { AnswerReader, HttpRequest, HttpResponse } from '../api/http.js';
import type { Change } from '../reconcile/index.js';
import type { Plan } from '../plan/types.js';
import { applyPlan } from './run.js';

/**
 * Apply's own logic, case by case, with the HTTP layer replaced by a script: ordering by
 * dependencies, ids flowing from a creation into its dependents, skipping after a failure,
 * "already gone" deletions, adoption after an ambiguous creation, and a graceful stop.
 * No server and no process.
 */
const ORG = 'org_t';

const createTeam = (id: string, title: string, dependsOn: string[] = []): Change => ({
  id,
  action: 'create',
  kind: 'team',
  address: `${ORG}/teams/${title}`,
  before: null,
  after: { title },
  dependsOn,
  op: { type: 'create-team', org: ORG, title },
});

const members = (id: string, team: string, ref: { change: string } | { id: string }): Change => ({
  id,
  action: 'update',
  kind: 'team-members',
  address: `${ORG}/teams/${team}/members`,
  before: {},
  after: { 'a@example.com': 'member' },
  dependsOn: 'change' in ref ? [ref.change] : [],
  op: { type: 'set-team-members', org: ORG, team: ref, add: ['a@example.com'], remove: [], memberships: {} },
});

const deleteTeam = (id: string, teamId: string): Change => ({
  id,
  action: 'delete',
  kind: 'team',
  address: `${ORG}/teams/${teamId}`,
  before: { title: teamId },
  after: null,
  dependsOn: [],
  op: { type: 'delete-team', org: ORG, team: { id: teamId } },
});

const plan = (changes: Change[]): Plan => ({
  formatVersion: 1,
  organizations: [ORG],
  changes,
  summary: { create: 0, update: 0, delete: 0, move: 0 },
  unmanaged: [],
  errors: [],
  warnings: [],
  guards: [],
  refusals: [],
  checksum: 'test',
});

/** What the scripted API answers: a status and body, or a failure with a code (sent or not). */
type Answer = { status: number; body?: unknown } | { fail: ApiErrorCode; status?: number; sent?: boolean };
type Script = (req: HttpRequest, calls: string[]) => Answer;

const teams = new Map<string, string>();
/** A small API: creating a team answers its id (or the script's failure), lists show the teams. */
const api = (script: Script = () => ({ status: 200 })) => {
  const client = new ApiClient({ apiUrl: 'http://127.0.0.1:9', token: 'unit-test-token' });
  const calls: string[] = [];
  teams.clear();
  const http = client.http as {
    send: (req: HttpRequest, shape?: ((res: HttpResponse) => unknown) | AnswerReader<unknown>) => unknown;
  };
  // As the client's: `shape` (a function or a reader: a list's page) makes what the caller gets of an answer (src/api/http-pacing.ts).
  http.send = async (req, shape) => {
    const res = await answerOf(req);
    return typeof shape === 'function' ? shape(res) : shape ? shape.read(res) : res;
  };
  const answerOf = async (req: HttpRequest): Promise<HttpResponse> => {
    const line = `${req.method} ${req.path}`;
    calls.push(line);
    const answer = script(req, calls);
    if ('fail' in answer)
      throw new ApiError({
        code: answer.fail,
        method: req.method,
        route: req.route,
        ...(answer.status !== undefined ? { status: answer.status } : {}),
        sent: answer.sent ?? true,
      });
    if (req.method === 'PUT' && req.path.endsWith('/teams')) {
      const title = (req.body as { title: string }).title;
      const id = `team_${title.toLowerCase()}`;
      teams.set(id, title);
      return { status: 201, body: { id, title } };
    }
    if (req.method === 'GET' && req.path.endsWith('/teams'))
      return { status: 200, body: { items: [...teams].map(([id, title]) => ({ id, title })) } };
    return { status: answer.status, body: answer.body };
  };
  return { client, calls };
};

let open: ApiClient | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

type Row = {
  name: string;
  changes: Change[];
  script?: Script;
  /** `id status` per change, in plan order (`adopted` marks an adoption). */
  results: string[];
  /** Requests in the order sent, when it matters. */
  calls?: string[];
  stopAfter?: number;
};

const rows: Row[] = [
  {
    name: 'a creation passes its id to the change that waits for it',
    changes: [createTeam('c1', 'Writers'), members('c2', 'Writers', { change: 'c1' })],
    results: ['c1 applied', 'c2 applied'],
    calls: ['PUT /orgs/org_t/teams', 'PUT /orgs/org_t/teams/team_writers/members'],
  },
  {
    name: 'a failed creation skips its dependents; an independent change still runs',
    changes: [
      createTeam('c1', 'Writers'),
      members('c2', 'Writers', { change: 'c1' }),
      members('c3', 'Ops', { id: 'team_ops' }),
    ],
    script: (req) =>
      req.method === 'PUT' && req.path.endsWith('/teams')
        ? { fail: 'invalid-request', status: 400, sent: true }
        : { status: 200 },
    results: ['c1 failed invalid-request', 'c2 skipped', 'c3 applied'],
  },
  {
    name: 'deleting what is already gone is success',
    changes: [deleteTeam('c1', 'team_old')],
    script: () => ({ fail: 'not-found', status: 404 }),
    results: ['c1 applied'],
  },
  {
    name: 'a 404 on anything but a delete is a failure',
    changes: [members('c1', 'Ops', { id: 'team_ops' })],
    script: () => ({ fail: 'not-found', status: 404 }),
    results: ['c1 failed not-found'],
  },
  {
    name: 'a creation whose answer was lost is adopted when the list shows it',
    changes: [createTeam('c1', 'Writers'), members('c2', 'Writers', { change: 'c1' })],
    script: (req, calls) => {
      if (req.method === 'PUT' && req.path.endsWith('/teams') && calls.length === 1) {
        teams.set('team_landed', 'Writers');
        return { fail: 'server', status: 502, sent: true };
      }
      return { status: 200 };
    },
    results: ['c1 applied adopted', 'c2 applied'],
    calls: ['PUT /orgs/org_t/teams', 'GET /orgs/org_t/teams', 'PUT /orgs/org_t/teams/team_landed/members'],
  },
  {
    name: 'a creation that failed ambiguously and is not listed is sent again',
    changes: [createTeam('c1', 'Writers')],
    script: (req, calls) =>
      req.method === 'PUT' && calls.length === 1 ? { fail: 'server', status: 502 } : { status: 200 },
    results: ['c1 applied'],
    calls: ['PUT /orgs/org_t/teams', 'GET /orgs/org_t/teams', 'PUT /orgs/org_t/teams'],
  },
  {
    name: 'a creation refused as a conflict is adopted at once, or fails without a retry',
    changes: [createTeam('c1', 'Writers')],
    script: (req) => (req.method === 'PUT' ? { fail: 'conflict', status: 409 } : { status: 200 }),
    results: ['c1 failed conflict'],
    calls: ['PUT /orgs/org_t/teams', 'GET /orgs/org_t/teams'],
  },
  {
    name: 'a stop request lets the running change finish and starts no other',
    changes: [createTeam('c1', 'Writers'), createTeam('c2', 'Ops', ['c1'])],
    stopAfter: 1,
    results: ['c1 applied', 'c2 skipped'],
  },
];

describe('applyPlan', () => {
  it.each(rows)('$name', async (row) => {
    const { client, calls } = api(row.script);
    open = client;
    const result = await applyPlan(plan(row.changes), client, {
      ...(row.stopAfter !== undefined ? { shouldStop: () => calls.length >= row.stopAfter! } : {}),
    });
    expect(
      result.results.map((r) =>
        [r.id, r.status, r.status === 'failed' ? r.code : undefined, r.adopted ? 'adopted' : undefined]
          .filter(Boolean)
          .join(' '),
      ),
    ).toEqual(row.results);
    if (row.calls) expect(calls).toEqual(row.calls);
  });
});
