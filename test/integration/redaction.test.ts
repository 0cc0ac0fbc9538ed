import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { startDaemonServer, type DaemonServer } from '../../src/daemon/server.js';
import { createLogger } from '../../src/log/logger.js';
import { FolderSource } from '../../src/source/folder-source.js';

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

it('an API error echoing the token never reaches /status, /metrics or the logs', async () => {
  const token = 'tok-echoed-by-the-api-5309';
  const apiUrl = await echoingApi(401);
  const dir = mkdtempSync(join(tmpdir(), 'docsync-redact-'));
  writeFileSync(join(dir, 'org.yaml'), 'organization: org_r\nteams:\n  - title: Writers\n');
  let logs = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const metrics = createMetrics();
  const api = new ApiClient({ apiUrl, token, maxAttempts: 1 });
  const daemon = new Daemon(new FolderSource(dir), api, logger, metrics, {
    mode: 'plan',
    intervalMs: 3_600_000,
    driftCron: '0 0 1 1 *',
    selfHeal: false,
    allowDeletes: 0,
    stateDir: join(dir, 'state'),
    reminderMs: 3_600_000,
    stopTimeoutMs: 1_000,
  });
  const server: DaemonServer = await startDaemonServer(daemon, metrics, logger, {
    port: 0,
    host: '127.0.0.1',
  });
  cleanups.push(async () => {
    await daemon.stop();
    await server.close();
    await api.close();
  });
  await daemon.start();
  await daemon.idle();
  daemon.trigger('drift');
  await daemon.idle();
  const status = await (await fetch(`${server.url}/status`)).text();
  // The failure itself is reported, only the token is not.
  expect(status).toContain('bad credentials');
  expect(status).toContain('[redacted]');
  const metricsText = await (await fetch(`${server.url}/metrics`)).text();
  for (const output of [status, metricsText, logs]) expect(output).not.toContain(token);
});
