import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, call, TOKEN, withEmulator } from '../helpers/emulator.js';

/**
 * `docsync access` (issue 29, CONTRACT section 6): the effective-access matrix of an organization
 * from live state, read over HTTP from the emulator, in text, CSV and JSON; exit 0, or 1 on an
 * error. Run in-process (`runMain`).
 */
describe('docsync access', () => {
  let emu: Emulator;
  const env = () => ({ DOCSYNC_TOKEN: TOKEN, DOCSYNC_API_URL: emu.url, DOCSYNC_STATE_DIR: undefined });
  beforeAll(async () => {
    const seed = baseSeed(2) as { organizations: Record<string, unknown>[] };
    const org = seed.organizations[0]!;
    org['collections'] = [{ id: 'col_product', title: '=Product, "Core"' }];
    org['spaces'] = [
      { id: 'space_1', title: 'Space 1', parent: 'col_product' },
      { id: 'space_2', title: 'Space 2' },
    ];
    org['teams'] = [{ id: 'team_w', title: 'Writers', members: ['user_c'] }];
    emu = await withEmulator({ seed, flavor: 'current' });
    // Live defaults, set through the API: the collection gives read, its space inherits.
    expect((await call(emu, 'PATCH', '/collections/col_product', { defaultLevel: 'read' })).status).toBe(200);
    expect((await call(emu, 'PATCH', '/spaces/space_1', { defaultLevel: 'inherit' })).status).toBe(200);
  });
  afterAll(async () => emu.close());

  it('prints the matrix as JSON: admins once, every object with what all members get', async () => {
    const r = await runMain(['access', '--org', 'org_t', '-o', 'json', '--api-flavor', 'seed'], env());
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      organizations: { id: string; admins: string[]; rows: Record<string, string>[]; warnings: string[] }[];
    };
    expect(doc.organizations).toHaveLength(1);
    const [org] = doc.organizations;
    expect(org!.admins).toEqual(['a@example.com']);
    expect(
      org!.rows.map((x) => `${x['objectKind']} ${x['objectId']}: ${x['subject']} ${x['role']} (${x['via']})`),
    ).toEqual([
      'collection col_product: all members read (default level of collection =Product, "Core")',
      'space space_1: all members read (default level of collection =Product, "Core")',
    ]);
    expect(org!.warnings).toEqual([]);
  });

  it('prints CSV whose cells a spreadsheet never runs, and text', async () => {
    const csv = await runMain(['access', '--org', 'org_t', '--format', 'csv', '--api-flavor', 'seed'], env());
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')).toEqual([
      'organization,objectKind,objectId,object,subjectKind,subject,role,via',
      `org_t,collection,col_product,"'=Product, ""Core""",all,all members,read,"default level of collection =Product, ""Core"""`,
      `org_t,space,space_1,Space 1,all,all members,read,"default level of collection =Product, ""Core"""`,
      '',
    ]);
    const text = await runMain(['access', '--org', 'org_t', '--api-flavor', 'seed'], env());
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('organization admins (admin on everything): a@example.com');
    expect(text.stdout).toContain(
      'space Space 1 (space_1)\n  all members: read (via default level of collection =Product, "Core")',
    );
  });

  it("today's API: the matrix is checked against the API's permissions/aggregate answers", async () => {
    const aggregates = () => emu.requests().filter((x) => x.path.includes('/permissions/aggregate')).length;
    const before = aggregates();
    const r = await runMain(['access', '--org', 'org_t', '-o', 'json', '--api-flavor', 'current'], env());
    expect(r.code).toBe(0);
    // One aggregate read per object read (the collection and its space), and the emulator agrees.
    expect(aggregates() - before).toBe(2);
    expect(r.stderr).not.toContain('warning');
    const skipped = await runMain(
      ['access', '--org', 'org_t', '--no-aggregate', '--api-flavor', 'current'],
      env(),
    );
    expect(skipped.stderr).not.toContain('aggregate');
    expect(aggregates() - before).toBe(2);
  });

  it('exits 1 on an unknown organization, a bad format, or no config without --org', async () => {
    const unknown = await runMain(['access', '--org', 'org_nope', '--api-flavor', 'seed'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/error: .*org_nope|not.found/i);
    expect(unknown.stderr).not.toContain(TOKEN);
    const format = await runMain(['access', '--org', 'org_t', '--format', 'yaml'], env());
    expect(format.code).toBe(1);
    const noConfig = await runMain(['access', '--config', '/nonexistent/docsync-config'], env());
    expect(noConfig.code).toBe(1);
  });
});
