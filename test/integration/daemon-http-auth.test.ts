import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { isLoopback, parseUiAuth, readUiAuth } from '../../src/daemon/ui-auth.js';
import { createLogger } from '../../src/log/logger.js';
import { ROOT } from '../helpers/cli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/daemon.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import type { Emulator } from '../../src/emulator/server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function daemonOn(args: string[], extraEnv: Record<string, string | undefined> = {}) {
  let emu: Emulator | undefined = await withEmulator({ seed: exampleSeed() });
  const state = mkdtempSync(join(tmpdir(), 'docsync-http-auth-'));
  cleanups.push(() => rmSync(state, { recursive: true, force: true }));
  cleanups.push(async () => {
    await emu?.close();
    emu = undefined;
  });
  const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: state, ...extraEnv };
  const daemon: DaemonProcess = await startDaemonProcess(
    ['--config', join(ROOT, 'config'), '--mode', 'plan', '--interval', '1h', ...args],
    env,
  );
  cleanups.push(async () => {
    daemon.child.kill('SIGTERM');
    await daemon.exit;
  });
  return { daemon, state };
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

describe("the daemon's HTTP surface (issue 26, finding 5)", () => {
  it('listens on 127.0.0.1 by default; there the page and /api are open, with e-mails masked', async () => {
    const { daemon } = await daemonOn([], { DOCSYNC_HOST: undefined });
    expect(daemon.stdout()).toMatch(/on http:\/\/127\.0\.0\.1:\d+/);
    // The first sync has run (plan mode): its run holds the team members to add.
    const runCount = async () =>
      ((await (await get(`${daemon.url}/api/runs`)).json()) as { runs: [] }).runs.length;
    await expect.poll(runCount, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    const runs = (await (await get(`${daemon.url}/api/runs`)).json()) as { runs: { id: string }[] };
    const run = await (await get(`${daemon.url}/api/runs/${runs.runs[0]!.id}`)).text();
    const page = await (await get(`${daemon.url}/`)).text();
    for (const text of [run, page]) {
      expect(text).toContain('a***@example.com');
      expect(text).not.toContain('alice@example.com');
    }
  }, 60_000);

  it('beyond loopback without credentials: the page, /status and /api are refused; probes and metrics answer', async () => {
    const { daemon } = await daemonOn(['--host', '0.0.0.0']);
    expect(daemon.stderr()).toContain('status page, /status and /api disabled');
    for (const path of ['/', '/status', '/api/runs', '/api/runs/x']) {
      const res = await get(`${daemon.url}${path}`);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: string }).error).toContain('--ui-auth-file');
    }
    for (const path of ['/healthz', '/metrics']) expect((await get(`${daemon.url}${path}`)).status).toBe(200);
    expect([200, 503]).toContain((await get(`${daemon.url}/readyz`)).status);
  }, 60_000);

  it('beyond loopback with a token file: 401 without the token, 200 with it; e-mails shown on opt-in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-ui-token-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'ui-auth'), 'ui-token-0123456789\n');
    const { daemon } = await daemonOn(['--host', '0.0.0.0', '--ui-show-emails'], {
      DOCSYNC_UI_AUTH_FILE: join(dir, 'ui-auth'),
    });
    const bearer = { authorization: 'Bearer ui-token-0123456789' };
    for (const path of ['/', '/status', '/api/runs']) {
      const res = await get(`${daemon.url}${path}`);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await get(`${daemon.url}${path}`, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await get(`${daemon.url}${path}`, bearer)).status, path).toBe(200);
    }
    expect((await get(`${daemon.url}/healthz`)).status).toBe(200);
    await expect
      .poll(async () => (await (await get(`${daemon.url}/`, bearer)).text()).includes('alice@example.com'))
      .toBe(true);
    expect(daemon.stdout() + daemon.stderr()).not.toContain('ui-token-0123456789');
  }, 60_000);
});

describe('credentials for the page and /api', () => {
  async function server(auth: string, host = '127.0.0.1') {
    const fake = { ready: true, status: { note: 'dave@example.com' } } as unknown as Daemon;
    const s = await startDaemonServer(fake, createMetrics(), createLogger('silent'), {
      port: 0,
      host,
      uiAuth: parseUiAuth(auth, 'ui-auth'),
    });
    cleanups.push(() => s.close());
    return s;
  }
  const basic = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });

  it('basic auth: the right user and password pass; a wrong one or a bearer does not, on any address', async () => {
    const s = await server('ops:s3cret-pass');
    const status = async (headers: Record<string, string>) => (await get(`${s.url}/status`, headers)).status;
    expect(await status({})).toBe(401);
    expect((await get(`${s.url}/status`)).headers.get('www-authenticate')).toMatch(/^Basic realm="docsync"/);
    expect(await status(basic('ops', 's3cret-pass'))).toBe(200);
    expect(await status(basic('ops', 's3cret-pas'))).toBe(401);
    expect(await status(basic('root', 's3cret-pass'))).toBe(401);
    expect(await status({ authorization: 'Bearer ops:s3cret-pass' })).toBe(401);
    const body = (await (await get(`${s.url}/status`, basic('ops', 's3cret-pass'))).json()) as object;
    expect(body).toEqual({ note: 'd***@example.com' });
  });

  it('the file: one line, a token or user:password; empty or unreadable is a clear error', async () => {
    expect(parseUiAuth('tok-123\n', 'f')).toEqual({ kind: 'bearer', token: 'tok-123' });
    expect(parseUiAuth('a:b:c', 'f')).toEqual({ kind: 'basic', user: 'a', password: 'b:c' });
    expect(() => parseUiAuth('  \n', 'f')).toThrow(/empty/);
    expect(() => parseUiAuth(':pw', 'f')).toThrow(/empty user or password/);
    expect(() => parseUiAuth('a\nb', 'f')).toThrow(/one line/);
    await expect(readUiAuth('/nonexistent/ui-auth')).rejects.toMatchObject({ code: 'ui-auth' });
    await expect(readUiAuth('/dev/zero')).rejects.toThrow(/--ui-auth-file/);
  });

  it('a file reached through symlinks, as Kubernetes mounts a Secret, is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-ui-auth-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, '..2026_data'));
    writeFileSync(join(dir, '..2026_data', 'ui-auth'), 'ops:s3cret-pass\n');
    symlinkSync('..2026_data', join(dir, '..data'));
    symlinkSync(join('..data', 'ui-auth'), join(dir, 'ui-auth'));
    expect(await readUiAuth(join(dir, 'ui-auth'))).toEqual({
      kind: 'basic',
      user: 'ops',
      password: 's3cret-pass',
    });
  });

  it('loopback is 127.0.0.0/8, ::1 and localhost; 0.0.0.0, :: and a LAN address are not', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.com', '128.0.0.1'])
      expect(isLoopback(host), host).toBe(false);
  });
});
