import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { isLoopback, isLoopbackHostHeader, parseUiAuth, readUiAuth } from '../../src/daemon/ui-auth.js';
import { createLogger } from '../../src/log/logger.js';
import { ROOT } from '../helpers/cli.js';
import { startDaemonInProcess, type InProcessDaemon } from '../helpers/daemon.js';
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
  const daemon: InProcessDaemon = await startDaemonInProcess(
    ['--config', join(ROOT, 'config'), '--mode', 'plan', '--interval', '1h', ...args],
    env,
  );
  cleanups.push(async () => {
    await daemon.stop();
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
    // The members show once the first sync read them: expect.poll's default 1 s is too short on
    // a loaded machine (the daemon's start and first sync then take seconds).
    await expect
      .poll(async () => (await (await get(`${daemon.url}/`, bearer)).text()).includes('alice@example.com'), {
        timeout: 30_000,
        interval: 100,
      })
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

/** A request with any headers, `Host` included (fetch sets its own). */
function send(
  url: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a loopback daemon without credentials, against a web page (DNS rebinding, cross-site POST)', () => {
  let drained = 0;
  async function loopbackServer() {
    const fake = {
      ready: true,
      status: { note: 'live' },
      coordinator: {
        drain: async () => {
          drained += 1;
        },
        status: () => ({ owned: [] }),
        session: () => ({ ok: true }),
      },
    } as unknown as Daemon;
    const s = await startDaemonServer(fake, createMetrics(), createLogger('silent'), {
      port: 0,
      host: '127.0.0.1',
    });
    cleanups.push(() => s.close());
    return s;
  }

  it.each([
    ['127.0.0.1 with its port', (port: number) => `127.0.0.1:${port}`, 200],
    ['127.1.2.3', () => '127.1.2.3', 200],
    ['localhost with a port', (port: number) => `localhost:${port}`, 200],
    ['LOCALHOST', () => 'LOCALHOST', 200],
    ['[::1] with a port', (port: number) => `[::1]:${port}`, 200],
    ['a rebound name', (port: number) => `evil.example:${port}`, 403],
    ['a name ending in localhost', () => 'localhost.evil.example', 403],
    ['127.0.0.1 as a subdomain', () => '127.0.0.1.evil.example', 403],
    ['a LAN address', () => '10.0.0.5', 403],
  ])('Host %s: the page, /status and /api answer or are refused', async (_name, host, expected) => {
    const s = await loopbackServer();
    for (const path of ['/status', '/api/runs', '/'])
      expect((await send(s.url, path, { host: host(s.port) })).status === 403, path).toBe(expected === 403);
    // Probes answer whatever the name (no data there).
    expect((await send(s.url, '/healthz', { host: host(s.port) })).status).toBe(200);
  });

  it.each([
    ['the header, no Origin', { 'x-docsync-release': '1' }, 200],
    ['no header (a form post)', {}, 403],
    ['the header and an Origin', { 'x-docsync-release': '1', origin: 'https://evil.example' }, 403],
    ['an Origin of this host', { 'x-docsync-release': '1', origin: 'http://127.0.0.1' }, 403],
    ['a wrong header value', { 'x-docsync-release': 'yes' }, 403],
  ])('POST /coordination/release with %s', async (_name, headers, expected) => {
    const s = await loopbackServer();
    const before = drained;
    const r = await send(s.url, '/coordination/release', headers as Record<string, string>, 'POST');
    expect(r.status, r.body).toBe(expected);
    expect(drained - before).toBe(expected === 200 ? 1 : 0);
  });

  it('a Host header is loopback only for 127.x, localhost and [::1], with an optional port', () => {
    for (const h of ['127.0.0.1', '127.0.0.1:8080', 'localhost:1', '[::1]', '[::1]:80'])
      expect(isLoopbackHostHeader(h), h).toBe(true);
    for (const h of [
      undefined,
      '',
      '::1',
      'localhost:',
      'localhost:8080:1',
      '[::1',
      'a@127.0.0.1',
      '0.0.0.0:80',
    ])
      expect(isLoopbackHostHeader(h), String(h)).toBe(false);
  });
});
