import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';

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

/**
 * Node flags for every CLI process a test starts (`spawnCli`, and the tests that start the CLI
 * or the action's bundle on their own command line and talk HTTP): V8 compiles
 * WebAssembly (undici's HTTP parser, llhttp) with its baseline compiler only, instead of compiling
 * it again with the optimizing one in the background. A `docsync apply` of the demo: 0.97–1.14 s
 * of CPU to 0.69–0.74 s; a daemon's first 8 s: 1.0–1.1 s to 0.7–0.8 s (decision 41, eighth pass).
 * Not allowed in NODE_OPTIONS, so given on the command line.
 */
export const CLI_NODE_FLAGS: readonly string[] = ['--liftoff-only'];

/**
 * Start the real CLI as a process: only where the process is what is tested (signals, kill -9, a
 * terminal, the installed binary's exit codes and streams, the daemon's lifecycle). Anything else
 * runs the command in-process with `runMain`, a fraction of the CPU. Node runs it with
 * `CLI_NODE_FLAGS`.
 */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd = ROOT,
): ChildProcess {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: '1', ...env }))
    if (v !== undefined) childEnv[k] = v;
  return spawn(process.execPath, [...CLI_NODE_FLAGS, ...cliArgs(), ...args], {
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

/** One in-process run at a time: the environment, stdout/stderr and the TTY flags are the process's own. */
let queue: Promise<unknown> = Promise.resolve();

/** `isTTY` of the three standard streams, as a spawned CLI with pipes sees them (false), for one call. */
function withoutTty(): () => void {
  const streams = [process.stdin, process.stdout, process.stderr];
  const saved = streams.map((s) => Object.getOwnPropertyDescriptor(s, 'isTTY'));
  for (const s of streams)
    Object.defineProperty(s, 'isTTY', { value: false, configurable: true, writable: true });
  return () =>
    streams.forEach((s, i) => {
      const d = saved[i];
      if (d) Object.defineProperty(s, 'isTTY', d);
      else delete (s as { isTTY?: boolean }).isTTY;
    });
}

/** Set `env` (undefined: unset) for one call; the returned function puts the whole environment back. */
function withEnv(env: Record<string, string | undefined>): () => void {
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  return () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  };
}

/**
 * Run the CLI in this process (`main`), as `runCli` runs it as a process: `env` set for the call
 * (a value of undefined unsets it), NO_COLOR, no terminal on stdin, stdout or stderr; its exit code
 * and what it wrote to stdout and stderr. For tests where the process itself (start-up, signals,
 * exit of the real binary) is not what is tested: far cheaper than `runCli`. Calls run one after
 * another (each owns the environment and the standard streams while it runs), so `Promise.all`
 * over several of them is safe; the environment is put back after each call.
 */
export function runMain(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return inProcess(env, () => runMainNow(args));
}

/**
 * Run `fn` with `env` set (undefined: unset), NO_COLOR and no terminal on the standard streams, as
 * a spawned CLI with pipes has them; one call at a time with `runMain` (each owns the environment
 * while it runs), the environment put back after it.
 */
export function inProcess<T>(env: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const restoreEnv = withEnv({ NO_COLOR: '1', ...env });
    const restoreTty = withoutTty();
    try {
      return await fn();
    } finally {
      restoreTty();
      restoreEnv();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

export const text = (c: string | Uint8Array): string =>
  typeof c === 'string' ? c : Buffer.from(c).toString();

async function runMainNow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../../src/cli/main.js');
  return captured(() => main(['node', 'docsync', ...args]));
}

/**
 * `fn` (an entry point that returns an exit code: the CLI's `main`, the action's `runAction`) in
 * this process, as `runMain` runs the CLI: `env` set for the call, its standard output, error and
 * console captured.
 */
export function runEntry(
  fn: () => Promise<number>,
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return inProcess(env, () => captured(fn));
}

async function captured(
  fn: () => Promise<number>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const write = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = ((c: string | Uint8Array) => (
    (stdout += text(c)),
    true
  )) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => (
    (stderr += text(c)),
    true
  )) as typeof process.stderr.write;
  // console.* as Node has it (stdout: log, info, debug; stderr: warn, error): vitest's own
  // console would not reach the streams above, and a secret printed there would go unseen.
  const methods = ['log', 'info', 'debug', 'warn', 'error'] as const;
  const consoleSaved = methods.map((m) => Object.getOwnPropertyDescriptor(console, m));
  const toOut = (...a: unknown[]) => void (stdout += `${format(...a)}\n`);
  const toErr = (...a: unknown[]) => void (stderr += `${format(...a)}\n`);
  // eslint-disable-next-line no-console -- the CLI's console, captured for the call
  for (const m of methods) console[m] = m === 'warn' || m === 'error' ? toErr : toOut;
  try {
    const code = await fn();
    return { code, stdout, stderr };
  } finally {
    methods.forEach((m, i) => {
      const d = consoleSaved[i];
      if (d) Object.defineProperty(console, m, d);
      else delete (console as Partial<Console>)[m];
    });
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}
