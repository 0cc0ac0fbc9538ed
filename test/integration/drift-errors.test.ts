import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { createLogger } from '../../src/log/logger.js';
import { FolderSource } from '../../src/source/folder-source.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('a drift check that cannot read is an error everywhere: status, metrics, readiness, log, notification', async () => {
  const emu = await withEmulator({ seed: baseSeed() });
  cleanups.push(() => emu.close());
  const notes: string[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      notes.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => hook.close(() => resolve())));
  const dir = mkdtempSync(join(tmpdir(), 'docsync-drift-err-'));
  writeFileSync(join(dir, 'org.yaml'), 'organization: org_t\nteams:\n  - title: Writers\n');
  const logs: { level: number; msg: string }[] = [];
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        logs.push(JSON.parse(line));
      }
      done();
    },
  });
  const metrics = createMetrics();
  const api = client(emu, { maxAttempts: 1 });
  const logger = createLogger('info', sink);
  const daemon = new Daemon(new FolderSource(dir), api, logger, metrics, {
    mode: 'plan',
    intervalMs: 3_600_000,
    selfHeal: false,
    allowDeletes: 0,
    stateDir: join(dir, 'state'),
    notifyUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
    reminderMs: 3_600_000,
    stopTimeoutMs: 1_000,
  });
  const server = await startDaemonServer(daemon, metrics, logger, { port: 0, host: '127.0.0.1' });
  cleanups.push(async () => {
    await daemon.stop();
    await server.close();
    await api.close();
  });
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, text: await res.text() };
  };
  const metric = async (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec((await get('/metrics')).text)?.[1] ?? NaN);
  const drift = async () => {
    daemon.trigger('drift');
    await daemon.idle();
  };

  await daemon.start();
  await daemon.idle();
  await drift();
  expect((await get('/readyz')).status).toBe(200);
  expect(await metric('docsync_last_drift_success_timestamp_seconds')).toBeGreaterThan(0);
  expect(await metric('docsync_drift_errors_total')).toBe(0);

  // The API goes down: every answer is a 503.
  await fetch(`${emu.url}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify({ rate: 1, statuses: [503] }),
  });
  await drift();
  const status = JSON.parse((await get('/status')).text);
  expect(status.lastDrift.error).toMatch(/failed \(server 503\)/);
  expect(await metric('docsync_drift_errors_total')).toBe(1);
  const ready = await get('/readyz');
  expect(ready.status).toBe(503);
  expect(JSON.parse(ready.text).reason).toBe('live state cannot be read (see /status)');
  expect(logs.some((l) => l.level === 50 && /drift check failed/.test(l.msg))).toBe(true);
  expect(notes.some((n) => /drift check failed/.test(JSON.parse(n).text))).toBe(true);
  // The run's logger names the organization: a line repeats no key (JSON.parse keeps the last
  // of two, log processors differ), "drift checked" and "drift check failed" included.
  const checked = lines.filter((l) => /"msg":"drift check(ed| failed)/.test(l));
  expect(checked.length).toBeGreaterThanOrEqual(2);
  for (const line of checked) expect(line.match(/"org":/g), line).toHaveLength(1);
  // The same failure again is counted, but not notified twice.
  await drift();
  expect(await metric('docsync_drift_errors_total')).toBe(2);
  expect(notes.filter((n) => /drift check failed/.test(n))).toHaveLength(1);

  // The API is back: ready again.
  await fetch(`${emu.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ rate: 0 }) });
  await drift();
  expect((await get('/readyz')).status).toBe(200);
  expect(JSON.parse((await get('/status')).text).lastDrift.error).toBeUndefined();
});
