import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, call, TOKEN, withEmulator } from '../helpers/emulator.js';

/**
 * The operator's controls end to end (issue 31), each through the CLI in-process against the
 * emulator: the plan shows what the control changed, and apply honours it.
 */
let emulator: Emulator;
let dir: string;
let stateDir: string;

beforeAll(async () => {
  emulator = await withEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsync-controls-'));
  stateDir = mkdtempSync(join(tmpdir(), 'docsync-controls-state-'));
  vi.stubEnv('DOCSYNC_TOKEN', TOKEN);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
});

const write = (yaml: string) => writeFileSync(join(dir, 'org.yaml'), yaml);
const cli = (...args: string[]) =>
  runMain([...args, '--config', dir, '--api-url', emulator.url, '--state-dir', stateDir]);
const apply = (...args: string[]) => cli('apply', '--yes', ...args);
const teams = async () =>
  ((await call(emulator, 'GET', '/orgs/org_t/teams')).body.items as { title: string }[])
    .map((t) => t.title)
    .sort();
const writes = () => emulator.requests().filter((r) => r.method !== 'GET');

function seed(teamTitles: string[]): void {
  const s = baseSeed(4) as { organizations: Record<string, unknown>[] };
  s.organizations[0]!['teams'] = teamTitles.map((title) => ({ title }));
  emulator.reset(s);
}

const SITE = (extra = '') => `sites:
  - title: Docs
    sections:
      - { path: guides, title: Guides, icon: book, spaces: [{ space: space_1, path: v1 }]${extra} }
      - { path: api, title: API, icon: code, spaces: [{ space: space_2, path: v2 }] }
`;

describe('ignore', () => {
  it('live differences in ignored fields are listed, not planned, and apply leaves them', async () => {
    seed([]);
    write(`organization: org_t\n${SITE()}`);
    expect((await apply()).code).toBe(0);
    const site = (await call(emulator, 'GET', '/orgs/org_t/sites')).body.items[0];
    const sections = (await call(emulator, 'GET', `/orgs/org_t/sites/${site.id}/sections`)).body.items;
    const guides = sections.find((s: { path: string }) => s.path === 'guides');
    const api = sections.find((s: { path: string }) => s.path === 'api');
    // Click-ops: someone changes icons and a title by hand.
    await call(emulator, 'PATCH', `/orgs/org_t/sites/${site.id}/sections/${guides.id}`, {
      icon: 'star',
      title: 'Manual',
    });
    await call(emulator, 'PATCH', `/orgs/org_t/sites/${site.id}/sections/${api.id}`, { icon: 'gear' });
    write(`organization: org_t
policy:
  ignore: [{ kind: site-section, fields: [icon] }]
${SITE(', ignore: [title]')}`);

    const text = await cli('plan', '--detailed-exitcode');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('No changes.');
    expect(text.stdout).toContain('Ignored (live differs; left alone by ignore rules):');
    expect(text.stdout).toContain(
      '~ site-section org_t/sites/Docs/sections/guides: icon, title (policy.ignore[0], sites[0].sections[0].ignore)',
    );
    expect(text.stdout).toContain('~ site-section org_t/sites/Docs/sections/api: icon (policy.ignore[0])');
    const json = JSON.parse((await cli('plan', '--format', 'json')).stdout);
    expect(json.ignored).toEqual([
      expect.objectContaining({ address: 'org_t/sites/Docs/sections/guides', fields: ['icon', 'title'] }),
      expect.objectContaining({ address: 'org_t/sites/Docs/sections/api', fields: ['icon'] }),
    ]);
    expect((await cli('plan', '--format', 'markdown')).stdout).toContain(
      '- `site-section` `org_t/sites/Docs/sections/api`: icon (policy',
    );
    const drift = await cli('drift');
    expect(drift.code).toBe(0);

    const before = writes().length;
    expect((await apply()).code).toBe(0);
    expect(writes().length).toBe(before);
    const after = (await call(emulator, 'GET', `/orgs/org_t/sites/${site.id}/sections`)).body.items;
    expect(after.find((s: { path: string }) => s.path === 'guides')).toMatchObject({
      icon: 'star',
      title: 'Manual',
    });
  });
});

describe('protect', () => {
  it('a protected team removed from the config is never deleted; the refusal names it and the rule', async () => {
    seed(['Writers', 'Editors', 'Old']);
    write(`organization: org_t
policy: { prune: true, protect: ["teams/Editors"] }
teams:
  - title: Writers
`);
    const plan = await cli('plan', '--detailed-exitcode');
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'This plan will be refused: org_t: the plan deletes org_t/teams/Editors, which policy.protect[0]: "teams/Editors" protects (remove the rule to allow it) (no flag overrides it) [protected-resource]',
    );
    const json = JSON.parse((await cli('plan', '--format', 'json')).stdout);
    expect(json.refusals).toEqual([
      expect.objectContaining({ guard: 'protect', code: 'protected-resource', override: null }),
    ]);
    const refused = await apply('--allow-deletes', '99');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused: org_t: the plan deletes org_t/teams/Editors');
    expect(await teams()).toEqual(['Editors', 'Old', 'Writers']);
  });
});

describe('protect on an entry', () => {
  it('a replacement of an entry marked protect: true is refused, naming the entry', async () => {
    seed([]);
    write('organization: org_t\ncustomFields:\n  - { name: owner, type: text, title: Owner }\n');
    expect((await apply()).code).toBe(0);
    write(
      'organization: org_t\ncustomFields:\n  - { name: owner, type: number, title: Owner, protect: true }\n',
    );
    const plan = await cli('plan');
    expect(plan.stdout).toContain(
      'org_t: the plan deletes org_t/custom-fields/owner, which customFields[0].protect: "custom-fields/owner" protects',
    );
    const before = writes().length;
    expect((await apply('--allow-deletes', '5')).code).toBe(1);
    expect(writes().length).toBe(before);
  });
});

describe('ratio thresholds', () => {
  const twelve = Array.from({ length: 12 }, (_, i) => `T${String(i + 1).padStart(2, '0')}`);

  it('"10%" of 12 teams allows 1 deletion: 3 are refused until --allow-deletes 3', async () => {
    seed(twelve);
    write(`organization: org_t
policy: { prune: true, maxDeletes: "10%" }
teams:
${twelve
  .slice(3)
  .map((t) => `  - title: ${t}`)
  .join('\n')}
`);
    const plan = await cli('plan');
    expect(plan.stdout).toContain(
      'This plan will be refused: org_t: the plan deletes 3 resources, more than policy.maxDeletes (1: "10%" of 12 managed resources) (needs --allow-deletes 3) [too-many-deletes]',
    );
    expect((await apply()).code).toBe(1);
    expect(await teams()).toHaveLength(12);
    expect((await apply('--allow-deletes', '3')).code).toBe(0);
    expect(await teams()).toEqual(twelve.slice(3));
  });

  it('per kind, and below the minimum population only the count applies', async () => {
    seed(['A', 'B', 'C', 'D']);
    write(`organization: org_t
policy: { prune: true, maxDeletes: { default: "5%", team: 1 } }
teams:
  - title: A
`);
    const json = JSON.parse((await cli('plan', '--format', 'json')).stdout);
    // 4 teams: "5%" does not apply below 10 resources (the count 10 does); the team limit does.
    expect(json.refusals.map((r: { message: string }) => r.message)).toEqual([
      'org_t: the plan deletes 3 team resources, more than policy.maxDeletes.team (1)',
    ]);
    expect((await apply('--allow-deletes', '2')).code).toBe(1);
    expect((await apply('--allow-deletes', '3')).code).toBe(0);
    expect(await teams()).toEqual(['A']);
  });

  it('maxUpdates refuses until --allow-updates', async () => {
    seed([]);
    write(`organization: org_t\n${SITE()}`);
    expect((await apply()).code).toBe(0);
    write(`organization: org_t
policy: { maxUpdates: 1 }
sites:
  - title: Docs
    sections:
      - { path: guides, title: Guides, icon: star, spaces: [{ space: space_1, path: v1 }] }
      - { path: api, title: API, icon: gear, spaces: [{ space: space_2, path: v2 }] }
`);
    const plan = await cli('plan');
    expect(plan.stdout).toContain(
      'org_t: the plan updates 2 resources, more than policy.maxUpdates (1) (needs --allow-updates 2) [too-many-updates]',
    );
    expect((await apply()).code).toBe(1);
    expect((await apply('--allow-updates', '2')).code).toBe(0);
    expect((await cli('plan', '--detailed-exitcode')).code).toBe(0);
  });
});

describe('--target', () => {
  it('plans and applies only the targets and what they depend on, never pruning outside them', async () => {
    seed(['Old']);
    write(`organization: org_t
policy: { prune: true }
teams:
  - title: Writers
${SITE()}`);
    const plan = await cli('plan', '--target', 'sites/Docs/sections/guides');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      'Partial plan: only --target sites/Docs/sections/guides and what they depend on; nothing else is planned, nor pruned.',
    );
    expect(plan.stdout).toContain('+ site org_t/sites/Docs');
    expect(plan.stdout).toContain('+ site-section org_t/sites/Docs/sections/guides');
    expect(plan.stdout).not.toContain('sections/api');
    expect(plan.stdout).not.toContain('teams/');
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete, 0 to move.');
    const json = JSON.parse((await cli('plan', '--format', 'json', '--target', 'org_t/teams/*')).stdout);
    expect(json).toMatchObject({ partial: true, targets: ['org_t/teams/*'] });
    expect(json.changes.map((c: { action: string; address: string }) => `${c.action} ${c.address}`)).toEqual([
      'create org_t/teams/Writers',
      'delete org_t/teams/Old',
    ]);
    expect((await cli('plan', '--format', 'markdown', '--target', 'teams/Writers')).stdout).toContain(
      '> **Partial plan:** only `--target teams/Writers` and what they depend on',
    );
    // A target that matches nothing (a typo) says so rather than planning nothing in silence.
    const typo = await cli('plan', '--target', 'teams/Writer', '--target', 'teams/Writers');
    expect(typo.code, typo.stderr).toBe(0);
    expect(typo.stdout + typo.stderr).toContain(
      '--target teams/Writer matches no planned change: nothing to do there, or not an address (docsync plan without --target lists them)',
    );
    expect(typo.stdout + typo.stderr).not.toContain('--target teams/Writers matches');

    // A saved partial plan applies only itself.
    const saved = join(dir, '..', `${dir.split('/').pop()}-plan.json`);
    expect((await cli('plan', '--target', 'teams/Writers', '--out', saved)).code).toBe(0);
    const applied = await runMain([
      'apply',
      '--yes',
      '--plan',
      saved,
      '--api-url',
      emulator.url,
      '--state-dir',
      stateDir,
    ]);
    rmSync(saved, { force: true });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await teams()).toEqual(['Old', 'Writers']);
    expect((await call(emulator, 'GET', '/orgs/org_t/sites')).body.items).toEqual([]);

    expect((await apply('--target', 'sites/Docs/**')).code).toBe(0);
    expect(await teams()).toEqual(['Old', 'Writers']);
    const drift = await cli('drift', '--target', 'sites/**');
    expect(drift.code).toBe(0);
    expect(drift.stdout).toContain('Partial plan');
  });

  it('a bad glob is refused before any work, naming the flag', async () => {
    seed([]);
    write('organization: org_t\n');
    const before = emulator.requests().length;
    const r = await cli('plan', '--target', 'sites//Docs');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("option '--target <address>'");
    expect(r.stderr).toContain('single slashes');
    expect(emulator.requests().length).toBe(before);
  });
});
