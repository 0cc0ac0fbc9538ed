import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { inProcess, spawnCli, text, until } from './cli.js';

export type DaemonProcess = {
  child: ChildProcess;
  /** The daemon's own HTTP address, as it printed it (it listens on a port the OS chose). */
  url: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
  status: () => Promise<any>;
};

/**
 * Start `docsync daemon` as a process on port 0 and wait until it answers /healthz. The daemon
 * prints its address on stdout (`… on http://127.0.0.1:PORT: …`), so no two tests can race for a
 * port, however many run at once. The URL is always the loopback one (also for `--host 0.0.0.0`).
 */
export async function startDaemonProcess(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<DaemonProcess> {
  // Loopback unless the test chooses (`--host`, or DOCSYNC_HOST in env, even unset: the default).
  const host = args.includes('--host') || 'DOCSYNC_HOST' in env ? [] : ['--host', '127.0.0.1'];
  const child = spawnCli(['daemon', '--port', '0', ...host, ...args], env);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let exited = false;
  void exit.then(() => (exited = true));
  const url = await until(() => {
    if (exited) throw new Error(`the daemon exited before listening:\n${out}\n${err}`);
    return /on http:\/\/(?:127\.0\.0\.1|0\.0\.0\.0):(\d+)/.exec(out)?.[1];
  }, timeoutMs).then((port) => `http://127.0.0.1:${port}`);
  await until(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok, timeoutMs);
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    exit,
    status: async () => (await fetch(`${url}/status`)).json(),
  };
}

export type InProcessDaemon = {
  /** The daemon's own HTTP address (it listens on a port the OS chose). */
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Stop it as SIGTERM stops the process; its exit code. */
  stop: () => Promise<number>;
  /** Its exit code, once it stopped. */
  exit: Promise<number>;
  status: () => Promise<any>;
};

/**
 * `docsync daemon` run in this process, from its flags and `env` as `startDaemonProcess` starts it
 * (port 0, loopback unless the test chooses), stopped with `stop()` instead of a signal. The same
 * command, HTTP server, emulator over HTTP, git and etcd as the process: for tests of what the
 * daemon does, not of the process (signals, kill -9, SIGSTOP, exit on a stop timeout). Its output
 * is its own (`stdout()`, `stderr()`); `env` is set while it starts (the daemon reads its
 * environment then).
 */
export async function startDaemonInProcess(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<InProcessDaemon> {
  const { main } = await import('../../src/cli/main.js');
  const host = args.includes('--host') || 'DOCSYNC_HOST' in env ? [] : ['--host', '127.0.0.1'];
  let out = '';
  let err = '';
  const stream = (append: (t: string) => void) =>
    ({ write: (c: string | Uint8Array) => (append(text(c)), true) }) as unknown as NodeJS.WritableStream;
  const stopper = new AbortController();
  let exit: Promise<number> = Promise.resolve(0);
  const listening = await inProcess(
    env,
    () =>
      new Promise<string>((resolve, reject) => {
        exit = main(['node', 'docsync', 'daemon', '--port', '0', ...host, ...args], {
          stop: stopper.signal,
          ready: resolve,
          stdout: stream((t) => (out += t)),
          stderr: stream((t) => (err += t)),
        });
        exit.then(
          (code) => reject(new Error(`the daemon ended (exit ${code}) before listening:\n${out}\n${err}`)),
          reject,
        );
      }),
  );
  const url = listening.replace(/^http:\/\/[^/]+:(\d+)$/, 'http://127.0.0.1:$1');
  await until(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok, timeoutMs);
  return {
    url,
    stdout: () => out,
    stderr: () => err,
    stop: () => {
      stopper.abort();
      return exit;
    },
    exit,
    status: async () => (await fetch(`${url}/status`)).json(),
  };
}

/**
 * POST that declares `length` bytes and sends none: the status the server answers from the
 * headers alone (a server that waited for the body would time the request out instead).
 */
export function postDeclaring(url: string, length: number, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': String(length) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.flushHeaders();
  });
}
