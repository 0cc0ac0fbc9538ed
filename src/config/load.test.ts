import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfigFromBuffers } from './load.js';

const dir = new URL('../../test/fixtures/config/', import.meta.url).pathname;
const bad = readdirSync(dir)
  .filter((f) => f.startsWith('bad-'))
  .sort();

function expectation(file: string): { code: string; path: string; line: number } {
  const first = readFileSync(join(dir, file), 'utf8').split('\n')[0]!;
  const m = /^# expect: (\S+) (\S+) (\d+)$/.exec(first);
  if (!m) throw new Error(`${file}: first line must be "# expect: <code> <path|-> <line>"`);
  return { code: m[1]!, path: m[2] === '-' ? '' : m[2]!, line: Number(m[3]) };
}

describe('bad config fixtures', () => {
  it('has at least 40 of them', () => expect(bad.length).toBeGreaterThanOrEqual(40));
  it.each(bad)('%s fails with its code, key path and line', (file) => {
    const want = expectation(file);
    const result = loadConfigFromBuffers([{ file, bytes: readFileSync(join(dir, file)) }]);
    expect(result.desired).toBeNull();
    const match = result.issues.find((i) => i.code === want.code && i.path === want.path);
    expect(match, JSON.stringify(result.issues, null, 1)).toBeDefined();
    expect(match!.line).toBe(want.line);
    expect(match!.column).toBeGreaterThan(0);
    expect(match!.file).toBe(file);
  });
});

describe('hostile bytes', () => {
  const one = (bytes: Buffer) => loadConfigFromBuffers([{ file: 'x.yaml', bytes }]).issues;
  it('refuses a file over the size cap', () => {
    const issues = one(Buffer.alloc(10 * 1024 * 1024, 'a'));
    expect(issues[0]).toMatchObject({ code: 'file-too-large', line: 1 });
  });
  it('refuses invalid UTF-8 with its position', () => {
    const issues = one(
      Buffer.concat([
        Buffer.from('organization: o\nsites: ['),
        Buffer.from([0xc3, 0x28]),
        Buffer.from(']\n'),
      ]),
    );
    expect(issues[0]).toMatchObject({ code: 'invalid-utf8', line: 2 });
  });
  it('refuses a binary file', () => {
    expect(one(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]))[0]).toMatchObject({ code: 'binary-file' });
  });
  it('refuses deep block nesting without a stack overflow', () => {
    let text = 'organization: o\nx:\n';
    for (let i = 1; i < 300; i += 1) text += `${' '.repeat(i * 2)}k${i}:\n`;
    expect(one(Buffer.from(text))[0]).toMatchObject({ code: 'too-deep' });
  });
  it('bounds nesting at 64 levels, of brackets or of indentation', () => {
    const codes = (text: string) => one(Buffer.from(text)).map((i) => i.code);
    const flow = (depth: number) => `organization: o\nx: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    expect(codes(flow(64))).not.toContain('too-deep');
    expect(codes(flow(65))).toEqual(['too-deep']);
    // Closing brackets never count below none (a `]` first does not deepen what follows).
    expect(codes(`organization: o\ny: "${']'.repeat(10)}"\n${flow(64).slice(16)}`)).not.toContain('too-deep');
    const block = (spaces: number) => `organization: o\nx:\n${' '.repeat(spaces)}y: 1\n`;
    expect(codes(block(129))).not.toContain('too-deep');
    expect(codes(block(130))).toEqual(['too-deep']);
    // A line of white space only does not count.
    expect(codes(`organization: o\n${' '.repeat(200)}\n`)).not.toContain('too-deep');
    // A comment counts; so does a text outside the fast reader's subset (a document marker, a tab).
    expect(codes(`organization: o\n${' '.repeat(130)}# note\n`)).toEqual(['too-deep']);
    expect(codes(`---\n${block(130)}`)).toEqual(['too-deep']);
    expect(codes(`organization:\to\n${flow(65).slice(16)}`)).toEqual(['too-deep']);
  });
  it('refuses a folder with no config, and a missing folder', async () => {
    expect((await loadConfig(join(dir, 'good', 'none'))).issues[0]!.code).toBe('no-config');
    expect((await loadConfig(new URL('../../docs', import.meta.url).pathname)).issues[0]!.code).toBe(
      'no-config',
    );
  });
  it('names both places when a resource is described in two files', () => {
    const text = 'organization: org_x\nteams:\n  - title: Ops\n';
    const result = loadConfigFromBuffers([
      { file: 'a.yaml', bytes: Buffer.from(text) },
      { file: 'b.yaml', bytes: Buffer.from(text) },
    ]);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({
      code: 'duplicate',
      file: 'b.yaml',
      line: 3,
      path: 'teams[0].title',
    });
    expect(result.issues[0]!.message).toContain('a.yaml:3:12');
  });
  it('names the first place of a site space given three times in a site', () => {
    const text = [
      'organization: o',
      'sites:',
      '  - title: Docs',
      '    sections:',
      '      - { path: a, spaces: [{ space: s1 }, { space: s2 }] }',
      '      - { path: b, spaces: [{ space: s2 }, { space: s1, default: true }, { space: s1 }] }',
      '',
    ].join('\n');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(result.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'duplicate',
        'sites[0].sections[1].spaces[0].space',
        'site space for space "s2" is described twice (first at x.yaml:5:53)',
      ],
      [
        'duplicate',
        'sites[0].sections[1].spaces[1].space',
        'site space for space "s1" is described twice (first at x.yaml:5:38)',
      ],
      [
        'duplicate',
        'sites[0].sections[1].spaces[2].space',
        'site space for space "s1" is described twice (first at x.yaml:5:38)',
      ],
    ]);
  });
  it('names each repeated team member where it is, in a few members and in many', () => {
    const many = Array.from({ length: 20 }, (_, i) => `m${i}@example.com`).join(', ');
    const text = [
      'organization: o',
      'teams:',
      '  - title: Few',
      '    members: [a@example.com, b@example.com, { user: A@Example.com }, a@EXAMPLE.com, İ, i̇]',
      '  - title: Ok',
      '    members: [a@example.com, b@example.com, c@example.com]',
      '  - title: Many',
      `    members: [${many}, M3@example.com]`,
      '',
    ].join('\n');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(result.issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'duplicate',
        'teams[0].members[2]',
        'team member "A@Example.com" is described twice (first at x.yaml:4:15)',
      ],
      [
        'duplicate',
        'teams[0].members[3]',
        'team member "a@EXAMPLE.com" is described twice (first at x.yaml:4:15)',
      ],
      ['duplicate', 'teams[0].members[5]', 'team member "i̇" is described twice (first at x.yaml:4:85)'],
      [
        'duplicate',
        'teams[2].members[20]',
        'team member "M3@example.com" is described twice (first at x.yaml:8:63)',
      ],
    ]);
  });
  it('reports checks across kinds in file order, as a compiler does', () => {
    const text = [
      'organization: o',
      'sites:',
      '  - title: Docs',
      '    shareLinks: [{ name: a }, { name: a }]',
      '    sections:',
      '      - { path: p, spaces: [{ space: s1 }] }',
      '      - { path: p, spaces: [{ space: s2 }] }',
      '  - title: Docs',
      'teams:',
      '  - title: Ops',
      '  - title: Ops',
      '',
    ].join('\n');
    const result = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(result.issues.map((i) => [i.line, i.path])).toEqual([
      [4, 'sites[0].shareLinks[1].name'],
      [7, 'sites[0].sections[1].path'],
      [8, 'sites[1].title'],
      [11, 'teams[1].title'],
    ]);
  });
  it('collects every problem at once', () => {
    const result = loadConfigFromBuffers([
      {
        file: 'x.yaml',
        bytes: Buffer.from('organization: o\nsites:\n  - title: D\n    visiblity: x\nteamz: []\n'),
      },
    ]);
    expect(result.issues.map((i) => i.code).sort()).toEqual(['too-short', 'unknown-key', 'unknown-key']);
  });
});

describe('good configs', () => {
  it('normalizes the full example: defaults, shorthand members, list order', async () => {
    const result = await loadConfig(join(dir, 'good'));
    expect(result.issues).toEqual([]);
    const orgs = result.desired!.organizations;
    expect(orgs.map((o) => o.id)).toEqual(['org_demo', 'org_multi', 'org_root', 'org_teams']);
    const demo = orgs[0]!;
    expect(demo.policy).toEqual({ prune: true, maxDeletes: 10 });
    expect(demo.teams![0]!.members).toEqual([
      { user: 'alice@example.com', role: 'owner' },
      { user: 'bob@example.com', role: 'member' },
    ]);
    expect(demo.sites![0]!.sections!.map((s) => s.path)).toEqual(['guides', 'api', 'changelog']);
    const multi = orgs[1]!;
    expect(multi.policy).toEqual({ prune: true, maxDeletes: 3 });
    expect(multi.customFields).toHaveLength(1);
    expect(multi.spaces![0]!.customFields).toEqual({ tier: ['gold'] });
    expect(orgs[2]!.sites![0]).toMatchObject({
      proxy: null,
      spaces: [
        { space: 'space_1', path: 'handbook', default: true },
        { space: 'space_2', condition: 'visitor.claims.staff' },
      ],
    });
    expect(orgs[3]!.teams).toEqual([
      {
        title: 'Writers',
        id: 'team_123',
        members: [
          { user: 'alice@example.com', role: 'owner' },
          { user: 'user_bob', role: 'member' },
        ],
      },
      { title: 'Reviewers' },
    ]);
    const defaults = orgs[3]!.policy;
    expect(defaults).toEqual({ prune: false, maxDeletes: 10 });
  });
  it('validates the shipped config/ and examples/config/', async () => {
    for (const folder of ['../../config', '../../examples/config']) {
      const result = await loadConfig(new URL(folder, import.meta.url).pathname);
      expect(result.issues).toEqual([]);
    }
  });
});

describe('walks skipped when the text cannot hold what they look for (issue 33)', () => {
  const one = (text: string) => loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(text) }]);
  it('still refuses a reserved name written with an escape (the fast reader reads it)', () => {
    const result = one('organization: org_t\nteams:\n  - title: "construct\\u006fr"\n');
    expect(result.desired).toBeNull();
    expect(result.issues.map((i) => `${i.code} ${i.path} ${i.line}`)).toEqual([
      'reserved-name teams[0].title 3',
    ]);
  });
  it.each([
    ['plain', '    certificate: { env: DOCSYNC_SECRET_CERT }'],
    ['single-quoted', "    'certificate': { env: DOCSYNC_SECRET_CERT }"],
    ['double-quoted', '    "certificate": { env: DOCSYNC_SECRET_CERT }'],
    ['escaped', '    "c\\u0065rtificate": { env: DOCSYNC_SECRET_CERT }'],
    ['a block mapping', '    certificate:\n      env: DOCSYNC_SECRET_CERT'],
  ])('still reads an indirect value whose key is %s', (_how, line) => {
    const pem = readFileSync(new URL('../../examples/config/certs/okta.pem', import.meta.url), 'utf8');
    const text = `organization: org_t\nsaml:\n  - label: Okta\n    entityID: http://idp.example\n    ssoURL: https://idp.example/sso\n${line}\n`;
    const result = loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(text) }], {
      DOCSYNC_SECRET_CERT: pem,
    });
    expect(result.issues).toEqual([]);
    expect(result.desired!.organizations[0]!.saml![0]!.certificate?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
  it('still reads entry controls written in flow style', () => {
    const result = one('organization: org_t\nteams: [{ title: Writers, protect: true }]\n');
    expect(result.issues).toEqual([]);
    expect(result.desired!.organizations[0]!.policy.protect).toEqual([
      { address: 'teams/Writers', rule: 'teams[0].protect' },
    ]);
  });
});
