import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The CLI bundled by test/global-setup.ts at the start of every test run (plain `node`, fast to
 * start); `node --import tsx src/cli.ts` when a test runs without that set-up.
 */
const TS_CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const cliArgs = (): string[] => {
  const built = process.env['DOCSYNC_TEST_CLI'];
  return built ? [built] : ['--import', 'tsx', TS_CLI];
};

export type CliResult = {
  code: number | null;
  stdout: string;
  stderr: string;
  signal: NodeJS.Signals | null;
};

/** Start the real CLI as a process. */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd = ROOT,
): ChildProcess {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: '1', ...env }))
    if (v !== undefined) childEnv[k] = v;
  return spawn(process.execPath, [...cliArgs(), ...args], {
    cwd,
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, stdout, stderr, signal }));
    if (input !== undefined) child.stdin!.end(input);
    else child.stdin!.end();
  });
}

/** Wait until `predicate` holds, polling. */
export async function until<T>(
  predicate: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  stepMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * Run the CLI in this process (`main`), with `env` stubbed for the call: its exit code and what it
 * wrote to stdout and stderr. For tests where the process itself (start-up, signals) is not what
 * is tested: far cheaper than `runCli`.
 */
export async function runMain(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { vi } = await import('vitest');
  const { main } = await import('../../src/cli/main.js');
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((stderr += String(c)), true));
  try {
    const code = await main(['node', 'docsync', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
