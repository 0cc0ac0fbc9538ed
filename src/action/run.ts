import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCommit } from '../build-info.js';
import { main } from '../cli/main.js';
import { VERSION } from '../version.js';
import { inertLog } from './inert-log.js';

/**
 * The GitHub Action (action.yml, `runs.using: node24`): run one docsync command in this process,
 * write the step outputs (has-changes, exit-code, plan-file, report-file) and the job summary, and
 * post the plan as the sticky comment. The runner passes the inputs as `INPUT_<NAME>` variables,
 * the name upper-cased with its hyphens kept (`INPUT_API-URL`), as @actions/core reads them.
 */

type Env = NodeJS.ProcessEnv;
export type ActionCommand = 'validate' | 'plan' | 'drift' | 'apply';
const COMMANDS: readonly ActionCommand[] = ['validate', 'plan', 'drift', 'apply'];
const EXTENSIONS = { markdown: 'md', json: 'json', text: 'txt' } as const;
type Format = keyof typeof EXTENSIONS;

export function input(env: Env, name: string, fallback = ''): string {
  const v = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
  return v === undefined || v.trim() === '' ? fallback : v.trim();
}

/** `name=value`, or the delimited form when the value spans lines (as @actions/core writes it). */
function setOutput(env: Env, name: string, value: string): void {
  const file = env['GITHUB_OUTPUT'];
  if (!file) return;
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(
    file,
    value.includes('\n') ? `${name}<<${delimiter}\n${value}\n${delimiter}\n` : `${name}=${value}\n`,
  );
}

/** Run the CLI in this process; with `capture`, its standard output is returned instead of printed. */
async function docsync(args: string[], capture = false): Promise<{ code: number; stdout: string }> {
  if (!capture) return { code: await main(['node', 'docsync', ...args]), stdout: '' };
  const write = process.stdout.write.bind(process.stdout);
  let stdout = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await main(['node', 'docsync', ...args]), stdout };
  } finally {
    process.stdout.write = write;
  }
}

function fail(message: string): number {
  process.stdout.write(`::error::docsync action: ${message}\n`);
  return 1;
}

/** The action's one step. Returns the step's exit code. */
export async function runAction(): Promise<number> {
  // The CLI reads process.env (DOCSYNC_TOKEN, GITHUB_TOKEN, GITHUB_API_URL...): so does the action.
  const env = process.env;
  const command = input(env, 'command', 'plan');
  const config = input(env, 'config', 'config');
  const format = input(env, 'format', 'markdown');
  if (!(COMMANDS as readonly string[]).includes(command))
    return fail(`command must be validate, plan, drift or apply, not '${command}'`);
  if (!(format in EXTENSIONS)) return fail(`format must be markdown, text or json, not '${format}'`);
  const allowDeletes = input(env, 'allow-deletes', '0');
  if (!/^\d+$/.test(allowDeletes)) return fail(`allow-deletes must be a number, not '${allowDeletes}'`);
  process.stdout.write(`docsync ${VERSION} (commit ${buildCommit()}): ${command}\n`);

  const token = input(env, 'token');
  const githubToken = input(env, 'github-token') || env['GITHUB_TOKEN'] || '';
  if (token) env['DOCSYNC_TOKEN'] = token;
  // Read once: no later code (nor a child process) sees the tokens as inputs.
  for (const name of Object.keys(env)) if (name.startsWith('INPUT_') && /TOKEN$/.test(name)) delete env[name];

  const outDir = join(
    env['RUNNER_TEMP'] || tmpdir(),
    `docsync-${env['GITHUB_RUN_ID'] ?? 'local'}-${randomUUID()}`,
  );
  mkdirSync(outDir, { recursive: true });
  const report = join(outDir, `report.${EXTENSIONS[format as Format]}`);
  const planFile = join(outDir, 'plan.json');
  const apiUrl = input(env, 'api-url');
  const flavor = input(env, 'api-flavor');
  const common = [
    '--config',
    config,
    ...(apiUrl ? ['--api-url', apiUrl] : []),
    ...(flavor ? ['--api-flavor', flavor] : []),
  ];

  const run =
    command === 'validate'
      ? await docsync(['validate', '--config', config])
      : await docsync(
          command === 'plan'
            ? ['plan', ...common, '--format', format, '--out', planFile, '--detailed-exitcode']
            : command === 'drift'
              ? ['drift', ...common, '--format', format]
              : ['apply', ...common, '--yes', '--allow-deletes', allowDeletes, '--format', format],
          true,
        );
  setOutput(env, 'exit-code', String(run.code));
  if (command !== 'validate') {
    writeFileSync(report, run.stdout);
    // Live titles are in it: between stop-commands markers, no line of it is a workflow command.
    process.stdout.write(inertLog(run.stdout));
    setOutput(env, 'report-file', report);
    if (format === 'markdown' && env['GITHUB_STEP_SUMMARY'])
      appendFileSync(env['GITHUB_STEP_SUMMARY'], run.stdout);
  }
  const planned = command === 'plan' && existsSync(planFile);
  if (planned) setOutput(env, 'plan-file', planFile);
  if ((command === 'plan' || command === 'drift') && (run.code === 0 || run.code === 2))
    setOutput(env, 'has-changes', String(run.code === 2));

  if (planned && input(env, 'comment', 'false') === 'true') {
    const code = await comment(env, common, planFile, githubToken);
    if (code !== 0) return code;
  }
  if (run.code === 2) {
    if (input(env, 'fail-on-changes', 'false') !== 'true') return 0;
    process.stdout.write(`::error::docsync ${command}: live state differs from the configuration\n`);
  }
  return run.code;
}

/** The sticky pull request comment of the saved plan (`docsync comment`). */
async function comment(env: Env, common: string[], planFile: string, githubToken: string): Promise<number> {
  const base = input(env, 'base-config');
  const server = env['GITHUB_SERVER_URL'];
  const artifact =
    server && env['GITHUB_REPOSITORY'] && env['GITHUB_RUN_ID']
      ? `${server}/${env['GITHUB_REPOSITORY']}/actions/runs/${env['GITHUB_RUN_ID']}`
      : undefined;
  const saved = env['GITHUB_TOKEN'];
  env['GITHUB_TOKEN'] = githubToken;
  try {
    const { code } = await docsync([
      'comment',
      ...common,
      '--plan-file',
      planFile,
      ...(base ? ['--base-config', base] : []),
      ...(artifact ? ['--artifact-url', artifact] : []),
    ]);
    return code;
  } finally {
    if (saved === undefined) delete env['GITHUB_TOKEN'];
    else env['GITHUB_TOKEN'] = saved;
  }
}
