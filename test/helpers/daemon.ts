import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { spawnCli, until } from './cli.js';

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
