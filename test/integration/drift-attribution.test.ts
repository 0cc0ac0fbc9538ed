import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { readAttributions } from '../../src/live/audit.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { describeAttribution } from '../../src/plan/attribution.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../helpers/cli.js';
import { baseSeed, client, TOKEN, withEmulator } from '../helpers/emulator.js';

/**
 * Drift with a name (issue 31): the emulator keeps an audit log of the writes it serves, valid
 * under the official document, and a drift names who changed each drifted resource and when,
 * or "unknown" when the log has nothing (a change made behind the API's back).
 */
const config = `organization: org_t
members:
  - user: c@example.com
    role: read
teams:
  - title: Writers
  - title: Support
  - title: Legal
`;

function load(yaml: string): DesiredState {
  const r = loadConfigFromBuffers([{ file: 'config/demo.yaml', bytes: Buffer.from(yaml) }]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
}

async function as(emu: Emulator, user: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'x-emulator-actor': user,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.text()) || undefined };
}

describe('drift names who changed each drifted resource', () => {
  let emu: Emulator;
  let api: ApiClient;
  beforeEach(async () => {
    const seed = baseSeed(2) as { organizations: Record<string, unknown>[] };
    seed.organizations[0]!['teams'] = [{ title: 'Writers' }, { title: 'Support' }, { title: 'Legal' }];
    emu = await withEmulator({ seed, flavor: 'current' });
    api = client(emu, { flavor: 'current' });
  });
  afterEach(async () => {
    await api.close();
    await emu.close();
  });

  it('a role change and a deletion made in the UI are attributed; a change behind the API is unknown', async () => {
    const teams = emu.state().organizations[0]!.teams;
    const legal = teams.find((t) => t.title === 'Legal')!;
    expect((await as(emu, 'user_b', 'PATCH', '/orgs/org_t/members/user_c', { role: 'edit' })).status).toBe(
      200,
    );
    expect((await as(emu, 'user_c', 'DELETE', `/orgs/org_t/teams/${legal.id}`)).status).toBeLessThan(300);
    teams.find((t) => t.title === 'Writers')!.title = 'Authors'; // behind the API's back: no event

    const { plan } = await makePlan(api, load(config));
    const attributions = await readAttributions(api, 'org_t', plan.changes);
    expect(attributions.unavailable).toBeUndefined();
    const now = new Date();
    const lines = plan.changes.map(
      (c) => `${c.action} ${c.address}: ${describeAttribution(attributions.byChange[c.id], now)}`,
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^update .*c@example\.com: changed by b@example\.com at \d{4}-\d\d-\d\d \d\d:\d\d UTC, just now$/,
        ),
        expect.stringMatching(/Legal: changed by c@example\.com at .* UTC, just now$/),
        expect.stringMatching(/Writers: changed by: unknown/),
      ]),
    );
  });

  it('reads one small page per drifted resource, and nothing when there is no drift', async () => {
    await as(emu, 'user_b', 'PATCH', '/orgs/org_t/members/user_c', { role: 'edit' });
    const { plan } = await makePlan(api, load(config));
    const before = emu.requests().length;
    await readAttributions(
      api,
      'org_t',
      plan.changes.filter((c) => c.action === 'update'),
    );
    const reads = emu.requests().slice(before);
    expect(reads.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      'GET /v1/orgs/org_t/audit-events?limit=1&target=user_c',
    ]);
    const none = await readAttributions(api, 'org_t', []);
    expect(none.byChange).toEqual({});
    expect(emu.requests().length).toBe(before + 1);
  });

  it('an API without an audit log says so instead of failing the drift check', async () => {
    const seedApi = client(emu, { flavor: 'seed' });
    try {
      const { plan } = await makePlan(api, load(config.replace('role: read', 'role: admin')));
      const a = await readAttributions(seedApi, 'org_t', plan.changes);
      expect(a.unavailable).toMatch(/no audit log/);
    } finally {
      await seedApi.close();
    }
  });

  it('docsync drift says it in text, markdown and JSON', async () => {
    await as(emu, 'user_b', 'PATCH', '/orgs/org_t/members/user_c', { role: 'edit' });
    const dir = mkdtempSync(join(tmpdir(), 'docsync-drift-'));
    writeFileSync(join(dir, 'demo.yaml'), config);
    const env = { DOCSYNC_TOKEN: TOKEN };
    const base = ['drift', '--config', dir, '--api-url', emu.url, '--api-flavor', 'current'];
    const text = await runMain(base, env);
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/# changed by b@example\.com at .* UTC, just now/);
    const md = await runMain([...base, '-o', 'markdown'], env);
    expect(md.stdout).toMatch(/# changed by b@example\.com/);
    const json = JSON.parse((await runMain([...base, '-o', 'json'], env)).stdout);
    const update = json.changes.find((c: { action: string }) => c.action === 'update');
    expect(json.attributions.byChange[update.id]).toMatchObject({ actor: 'b@example.com' });
  });
});
