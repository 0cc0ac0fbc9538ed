import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './load.js';

/** A repository in a temp folder (`.git` marks its root: bases must lie inside it). */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'docsync-extends-'));
  mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  roots.push(root);
  return root;
}
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const load = (root: string, env: NodeJS.ProcessEnv = {}) =>
  loadConfig(join(root, 'config'), root, { env, root });

const BASE = `teams:
  - title: Platform
    members: []
  - title: Support
    members: []
policy:
  prune: true
  maxDeletes: 3
`;

describe('extends: shared base files', () => {
  it("takes the base's entries, replaces one by identity and merges policy key by key", async () => {
    const root = repo({
      'base/teams.yaml': BASE,
      'config/acme.yaml': `organization: org_acme
extends: [../base/teams.yaml]
teams:
  - title: Support
    members: [{ user: ann@example.com, role: owner }]
policy:
  maxDeletes: 7
`,
    });
    const result = await load(root);
    expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const org = result.desired!.organizations[0]!;
    expect(org.teams!.map((t) => t.title)).toEqual(['Platform', 'Support']);
    expect(org.teams![1]!.members).toHaveLength(1);
    expect(org.policy).toMatchObject({ prune: true, maxDeletes: 7 });
    expect(result.inherited).toEqual([
      { organization: 'org_acme', key: 'teams', identity: 'Platform', base: 'base/teams.yaml' },
      {
        organization: 'org_acme',
        key: 'teams',
        identity: 'Support',
        base: 'base/teams.yaml',
        overriddenBy: 'config/acme.yaml',
      },
    ]);
  });

  it('gives two organizations the same base, each once, and a base may extend another', async () => {
    const root = repo({
      'base/core.yaml': 'teams:\n  - title: Core\n    members: []\n',
      'base/teams.yaml': `extends: [core.yaml]\n${BASE}`,
      'config/a.yaml': 'organization: org_a\nextends: [../base/teams.yaml]\n',
      'config/b.yaml': 'organization: org_b\nextends: [../base/teams.yaml, ../base/core.yaml]\n',
    });
    const result = await load(root);
    expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
    for (const org of result.desired!.organizations)
      expect(org.teams!.map((t) => t.title)).toEqual(['Core', 'Platform', 'Support']);
  });

  it('points an error in a base entry at the base file, line and column, after removals', async () => {
    const root = repo({
      'base/teams.yaml': `teams:
  - title: Platform
    members: []
  - title: Platform
    members: []
`,
      'config/acme.yaml': 'organization: org_acme\nextends: [../base/teams.yaml]\n',
    });
    const result = await load(root);
    expect(result.desired).toBeNull();
    expect(result.issues[0]).toMatchObject({ code: 'duplicate', file: 'base/teams.yaml', line: 4 });
  });

  it('refuses a cycle, a base outside the repository, a symlinked base and a base naming an organization', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docsync-outside-'));
    roots.push(outside);
    writeFileSync(join(outside, 'base.yaml'), BASE);
    const root = repo({
      'base/a.yaml': 'extends: [b.yaml]\nteams: []\n',
      'base/b.yaml': 'extends: [a.yaml]\nteams: []\n',
      'base/org.yaml': 'organization: org_x\nteams: []\n',
      'config/acme.yaml': `organization: org_acme
extends:
  - ../base/a.yaml
  - ${join(outside, 'base.yaml')}
  - ../base/link.yaml
  - ../base/org.yaml
  - ../base/missing.yaml
`,
    });
    symlinkSync(join(root, 'base/a.yaml'), join(root, 'base/link.yaml'));
    const result = await load(root);
    expect(result.desired).toBeNull();
    const messages = result.issues.map((i) => `${i.file}:${i.line} ${i.code} ${i.message}`);
    expect(messages.some((m) => /base\/b\.yaml:1 invalid-extends .*extends itself/.test(m))).toBe(true);
    expect(messages.some((m) => /config\/acme\.yaml:4 invalid-extends .*outside/.test(m))).toBe(true);
    expect(messages.some((m) => /config\/acme\.yaml:5 invalid-extends .*symbolic link/i.test(m))).toBe(true);
    expect(
      messages.some((m) => /base\/org\.yaml:1 invalid-extends .*must not name an organization/.test(m)),
    ).toBe(true);
    expect(messages.some((m) => /config\/acme\.yaml:7 invalid-extends .*cannot be read/.test(m))).toBe(true);
  });

  it('still says a forgotten organization is required when no file extends the file', async () => {
    const root = repo({ 'config/acme.yaml': 'teams: []\n' });
    const result = await load(root);
    expect(result.desired).toBeNull();
    expect(result.issues[0]).toMatchObject({ code: 'required', path: 'organization' });
    expect(result.issues[0]!.message).toMatch(/extends/);
  });
});

describe('variables: ${DOCSYNC_VAR_*} in values', () => {
  const file = (text: string) => repo({ 'config/acme.yaml': text });

  it('expands a set variable in a value, and $${…} writes a literal', async () => {
    const root = file(`organization: org_acme
sites:
  - title: \${DOCSYNC_VAR_SITE} docs
    visibility: public
teams:
  - title: Literal $\${x}
    members: []
`);
    const result = await load(root, { DOCSYNC_VAR_SITE: 'Acme' });
    expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const org = result.desired!.organizations[0]!;
    expect(org.sites![0]!.title).toBe('Acme docs');
    expect(org.teams![0]!.title).toBe('Literal ${x}');
  });

  it.each([
    ['an unset variable', 'title: ${DOCSYNC_VAR_NOPE}', /DOCSYNC_VAR_NOPE is not set/],
    ['a name outside the namespace', 'title: ${HOME}', /not a docsync variable/],
  ])('refuses %s, located', async (_what, line, message) => {
    const root = file(`organization: org_acme\nsites:\n  - ${line}\n    visibility: public\n`);
    const result = await load(root, { HOME: '/root' });
    expect(result.desired).toBeNull();
    expect(result.issues[0]).toMatchObject({ code: 'invalid-variable', line: 3, path: 'sites[0].title' });
    expect(result.issues[0]!.message).toMatch(message);
    expect(JSON.stringify(result.issues)).not.toContain('/root');
  });

  it('refuses a variable in a key', async () => {
    const root = file('organization: org_acme\nsettings:\n  ${DOCSYNC_VAR_K}: x\n');
    const result = await load(root, { DOCSYNC_VAR_K: 'title' });
    expect(result.issues[0]).toMatchObject({ code: 'invalid-variable', line: 3 });
    expect(result.issues[0]!.message).toMatch(/keys/);
  });
});

describe('the shipped example (examples/multi-org)', () => {
  it('loads: two organizations, one base, one override, one variable', async () => {
    const root = new URL('../../', import.meta.url).pathname;
    const result = await loadConfig(join(root, 'examples/multi-org/config'), root, {
      root,
      env: { DOCSYNC_VAR_GLOBEX_SITE: 'Globex' },
    });
    expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const [acme, globex] = result.desired!.organizations;
    expect(acme!.teams!.map((t) => [t.title, t.members?.length ?? 0])).toEqual([
      ['Platform', 0],
      ['Support', 1],
    ]);
    expect(acme!.policy).toMatchObject({ prune: true, maxDeletes: 2 });
    expect(globex!.sites![0]!.title).toBe('Globex Docs');
    expect(globex!.policy).toMatchObject({ prune: true, maxDeletes: 5 });
  });
});
