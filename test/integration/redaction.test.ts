import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { RunJournal } from '../../src/daemon/runs/journal.js';
import { RunStore } from '../../src/daemon/runs/run-store.js';
import { startDaemonServer, type DaemonServer } from '../../src/daemon/server.js';
import { createLogger } from '../../src/log/logger.js';
import { FolderSource } from '../../src/source/folder-source.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An API that echoes the caller's token in every error it answers. */
async function echoingApi(status: number): Promise<string> {
  const server: Server = createServer((req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          code: status,
          message: `bad credentials: ${String(req.headers.authorization).slice('Bearer '.length)}`,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A notification webhook that keeps every body it receives. */
async function notificationSink(): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => hook.close(() => resolve())));
  return { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`, bodies };
}

/**
 * A daemon in plan mode on a folder, in this process, with every output it has: logs, the HTTP
 * endpoints (status page and run history included), a drift report and notifications.
 */
async function daemonOn(apiUrl: string, token: string, yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-redact-'));
  writeFileSync(join(dir, 'org.yaml'), yaml);
  let logs = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const metrics = createMetrics();
  const notes = await notificationSink();
  const api = new ApiClient({ apiUrl, token, maxAttempts: 1 });
  const journal = new RunJournal(await RunStore.open(join(dir, 'state', 'runs.jsonl')), logger);
  const report = join(dir, 'drift.md');
  const daemon = new Daemon(new FolderSource(dir), api, logger, metrics, {
    mode: 'plan',
    intervalMs: 3_600_000,
    driftCron: '0 0 1 1 *',
    selfHeal: false,
    allowDeletes: 0,
    stateDir: join(dir, 'state'),
    driftReport: report,
    notifyUrl: notes.url,
    reminderMs: 3_600_000,
    stopTimeoutMs: 1_000,
    journal,
  });
  const server: DaemonServer = await startDaemonServer(daemon, metrics, logger, {
    port: 0,
    host: '127.0.0.1',
    journal,
  });
  cleanups.push(async () => {
    await daemon.stop();
    await journal.store.flush();
    await server.close();
    await api.close();
  });
  await daemon.start();
  await daemon.idle();
  daemon.trigger('drift');
  await daemon.idle();
  await journal.store.flush();
  const get = async (path: string) => (await fetch(`${server.url}${path}`)).text();
  /** Every output the daemon has made, by name. */
  const outputs = async (): Promise<Record<string, string>> => {
    const runs = JSON.parse(await get('/api/runs')) as { runs: { id: string }[] };
    expect(runs.runs.length).toBeGreaterThanOrEqual(2);
    const details = await Promise.all(runs.runs.map((r) => get(`/api/runs/${r.id}`)));
    return {
      '/': await get('/'),
      '/status': await get('/status'),
      '/metrics': await get('/metrics'),
      '/api/runs': JSON.stringify(runs),
      '/api/runs/{id}': details.join('\n'),
      'runs.jsonl': readFileSync(join(dir, 'state', 'runs.jsonl'), 'utf8'),
      logs,
      notifications: notes.bodies.join('\n'),
    };
  };
  return { metrics, outputs, report };
}

const leaks = (outputs: Record<string, string>, secret: string) =>
  Object.entries(outputs)
    .filter(([, text]) => text.includes(secret))
    .map(([name]) => name);

it('an API error echoing the token never reaches /status, /metrics, the status page, run history, logs or notifications', async () => {
  const token = 'tok-echoed-by-the-api-5309';
  const apiUrl = await echoingApi(401);
  const d = await daemonOn(apiUrl, token, 'organization: org_r\nteams:\n  - title: Writers\n');
  const outputs = await d.outputs();
  // The failure itself is reported (drift error notification included), only the token is not.
  expect(outputs['/status']).toContain('bad credentials');
  expect(outputs['/status']).toContain('[redacted]');
  expect(outputs['/']).toContain('bad credentials');
  expect(outputs['/api/runs/{id}']).toContain('bad credentials');
  expect(outputs['notifications']).toContain('bad credentials');
  expect(leaks(outputs, token)).toEqual([]);
});

it('a secret inside a plan (a config quoting the token) is redacted from the status page, runs, drift report, notification and /metrics labels', async () => {
  const emu = await withEmulator({ seed: baseSeed() });
  cleanups.push(() => emu.close());
  const secret = TOKEN;
  // Anyone who can merge to the config repository can write this: the token must not come back.
  const d = await daemonOn(
    emu.url,
    secret,
    `organization: org_t\nteams:\n  - title: "Writers ${secret}"\n    members: []\n`,
  );
  // Only for this test: a metric label carrying the secret stands for any label added later.
  d.metrics.sourceInfo.set({ revision: `rev-${secret}` }, 1);
  const outputs = await d.outputs();
  outputs['drift report'] = readFileSync(d.report, 'utf8');
  // The plan was made and reported everywhere (so each output was checked with content in it).
  expect(outputs['drift report']).toContain('Writers [redacted]');
  expect(outputs['/']).toContain('Writers [redacted]');
  expect(outputs['/api/runs/{id}']).toContain('Writers [redacted]');
  expect(outputs['notifications']).toContain('Writers [redacted]');
  expect(outputs['/metrics']).toContain('rev-[redacted]');
  expect(leaks(outputs, secret)).toEqual([]);
});
