import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { exampleSeed, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { ROOT, runCli, runMain } from '../helpers/cli.js';

let emu: Emulator;
let state: string;
beforeEach(async () => {
  emu = await withEmulator({ seed: exampleSeed() });
  state = mkdtempSync(join(tmpdir(), 'docsync-state-'));
});
afterEach(async () => emu.close());

const env = () => ({
  DOCSYNC_API_URL: emu.url,
  DOCSYNC_TOKEN: TOKEN,
  DOCSYNC_STATE_DIR: state,
  DOCSYNC_LOG_LEVEL: 'warn',
});
const config = join(ROOT, 'config');

describe('docsync validate', () => {
  it('exits 0 for the shipped config, 1 with compiler-style errors for a bad one', async () => {
    const ok = await runMain(['validate', '--config', config]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('valid');
    const dir = mkdtempSync(join(tmpdir(), 'docsync-bad-'));
    writeFileSync(join(dir, 'x.yaml'), 'organization: o\nsites:\n  - title: Docs\n    visiblity: public\n');
    const bad = await runMain(['validate', '--config', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /x\.yaml:4:5: error\[unknown-key\] sites\[0\]\.visiblity: unknown key "visiblity"; did you mean "visibility"\?/,
    );
  });
});

describe('docsync plan / drift / apply', () => {
  it('plan prints all formats, never writes, and --detailed-exitcode tells changes apart', async () => {
    // Four read-only commands, independent of each other: run at once.
    const [text, json, md, drift] = await Promise.all([
      runMain(['plan', '--config', config], env()),
      runMain(['plan', '--config', config, '--format', 'json', '--detailed-exitcode'], env()),
      runMain(['plan', '--config', config, '--format', 'markdown'], env()),
      runMain(['drift', '--config', config], env()),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('+ site org_demo/sites/Developer Docs');
    expect(text.stdout).toMatch(/Plan: \d+ to create/);
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({
      formatVersion: 1,
      organizations: ['org_demo'],
      summary: { create: expect.any(Number) },
    });
    expect(doc.changes[0]).toMatchObject({
      id: 'c1',
      action: expect.any(String),
      kind: expect.any(String),
      address: expect.any(String),
      dependsOn: [],
    });
    expect(md.stdout).toContain('<details>');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('drift report');
    expect(writes(emu)).toEqual([]);
    expect(emu.requests().every((r) => r.method === 'GET')).toBe(true);
  });

  it('apply refuses without --yes when not on a terminal, applies with --yes, then plan shows no changes', async () => {
    const refused = await runMain(['apply', '--config', config], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --yes');
    expect(writes(emu)).toEqual([]);
    const applied = await runMain(['apply', '--config', config, '--yes'], env());
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      /Apply: \d+ resources? .* in (\d+) calls: \1 applied, 0 failed, 0 skipped/,
    );
    const n = Number(/in \d+ calls: (\d+) applied/.exec(applied.stdout)![1]);
    expect(writes(emu)).toHaveLength(n);
    const again = await runMain(['plan', '--config', config, '--detailed-exitcode'], env());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes');
    const drift = await runMain(['drift', '--config', config], env());
    expect(drift.code).toBe(0);
    const noop = await runMain(['apply', '--config', config, '--yes'], env());
    expect(noop.code).toBe(0);
    expect(writes(emu)).toHaveLength(n);
  });

  it('apply --plan applies a saved plan, and refuses it once live state changed', async () => {
    const file = join(state, 'plan.json');
    expect((await runMain(['plan', '--config', config, '--out', file], env())).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      formatVersion: 1,
      checksum: expect.any(String),
      desired: expect.any(Object),
    });
    const stale = join(state, 'stale.json');
    writeFileSync(stale, readFileSync(file));
    expect((await runMain(['apply', '--plan', file, '--yes'], env())).code).toBe(0);
    const refused = await runMain(['apply', '--plan', stale, '--yes'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('live state changed since this plan was made; plan again');
  });

  it('a site space naming a missing space fails the plan at its line, and apply writes nothing (issue 27)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-ref-'));
    writeFileSync(
      join(dir, 'org.yaml'),
      'organization: org_demo\nteams:\n  - title: New team\nsites:\n  - title: Ref site\n    spaces:\n      - { space: space_apii, path: api }\n',
    );
    const [planned, applied] = await Promise.all([
      runMain(['plan', '--config', dir], env()),
      runMain(['apply', '--config', dir, '--yes'], env()),
    ]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(
      /org\.yaml:7:18: site "Ref site": space space_apii does not exist in org_demo \[unknown-reference\]/,
    );
    expect(applied.code).toBe(1);
    expect(writes(emu)).toEqual([]);
  });

  it('refuses more deletions than policy.maxDeletes unless --allow-deletes covers them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-prune-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'org.yaml'),
      'organization: org_demo\npolicy: { prune: true, maxDeletes: 0 }\nteams: []\n',
    );
    // The plan shows the verdict apply will give, and --detailed-exitcode fails it (issue 27).
    const [planned, json] = await Promise.all([
      runMain(['plan', '--config', dir, '--detailed-exitcode'], env()),
      runMain(['plan', '--config', dir, '--format', 'json'], env()),
    ]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      'This plan will be refused: org_demo: the plan deletes 1 resource, more than policy.maxDeletes (0) (needs --allow-deletes 1)',
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).refusals).toEqual([
      {
        organization: 'org_demo',
        guard: 'maxDeletes',
        code: 'too-many-deletes',
        message: 'org_demo: the plan deletes 1 resource, more than policy.maxDeletes (0)',
        override: '--allow-deletes 1',
      },
    ]);
    const refused = await runMain(['apply', '--config', dir, '--yes'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('policy.maxDeletes (0)');
    expect(refused.stderr).toContain('--allow-deletes 1');
    expect(writes(emu)).toEqual([]);
    const allowed = await runMain(['apply', '--config', dir, '--yes', '--allow-deletes', '1'], env());
    expect(allowed.code).toBe(0);
    expect(writes(emu).map((w) => w.method)).toEqual(['DELETE']);
  });

  it('a network command without a token fails clearly, and bad flags exit 1', async () => {
    const tokenFile = join(state, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const [noToken, badFormat, viaFile] = await Promise.all([
      runMain(['plan', '--config', config], {
        ...env(),
        DOCSYNC_TOKEN: undefined,
        DOCSYNC_TOKEN_FILE: undefined,
      }),
      runMain(['plan', '--format', 'yaml']),
      runMain(['plan', '--config', config], {
        ...env(),
        DOCSYNC_TOKEN: undefined,
        DOCSYNC_TOKEN_FILE: tokenFile,
      }),
    ]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('DOCSYNC_TOKEN');
    expect(badFormat.code).toBe(1);
    expect(viaFile.code).toBe(0);
  });
});

describe('the real binary', () => {
  it('exits 2 and 1; the plan goes to stdout, logs and errors to stderr', async () => {
    // The one process-level check of this file: what a shell or CI sees of the installed CLI.
    // Exit 0 with the verdict on stdout: `validate` of the shipped binary (test/ci/shipped-cli.test.ts).
    const [planned, bad] = await Promise.all([
      runCli(['plan', '--config', config, '--detailed-exitcode', '--log-level', 'info'], env()),
      runCli(['plan', '--format', 'yaml']),
    ]);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('+ site org_demo/sites/Developer Docs');
    expect(planned.stdout).not.toMatch(/^\{/m);
    expect(planned.stderr).toMatch(/^\{.*"msg":"api flavor"/m);
    expect(planned.stderr).not.toContain('org_demo/sites/Developer Docs');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain("argument 'yaml' is invalid");
  });
});

describe('several organizations', () => {
  it('an organization that cannot be read is reported; the others still plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-multi-'));
    writeFileSync(join(dir, 'demo.yaml'), readFileSync(join(config, 'demo.yaml')));
    writeFileSync(join(dir, 'ghost.yaml'), 'organization: org_ghost\nteams:\n  - title: Nobody\n');
    const res = await runMain(['plan', '--config', dir], env());
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('error: cannot read the live state of org_ghost');
    expect(res.stdout).toContain('+ site org_demo/sites/Developer Docs');
    expect(writes(emu)).toEqual([]);
  });
});
