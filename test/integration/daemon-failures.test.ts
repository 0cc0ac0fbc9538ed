import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { RunJournal } from '../../src/daemon/runs/journal.js';
import { RunStore } from '../../src/daemon/runs/run-store.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { createLogger } from '../../src/log/logger.js';
import { FolderSource } from '../../src/source/folder-source.js';
import { GitSource } from '../../src/source/git-source.js';
import type { ConfigSource } from '../../src/source/types.js';
import { makeRepo } from '../helpers/git.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type LogLine = { level: number; msg: string; [k: string]: unknown };

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A daemon in plan mode on `source`, with its HTTP server and run history; one run done. */
async function runDaemon(source: ConfigSource, apiUrl: string) {
  const state = mkdtempSync(join(tmpdir(), 'docsync-failures-state-'));
  const logs: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const logger = createLogger('info', sink);
  const metrics = createMetrics();
  const api = new ApiClient({ apiUrl, token: 'failures-token-0123456789', maxAttempts: 2 });
  const journal = new RunJournal(await RunStore.open(join(state, 'runs.jsonl')), logger);
  const daemon = new Daemon(source, api, logger, metrics, {
    mode: 'plan',
    intervalMs: 3_600_000,
    selfHeal: false,
    allowDeletes: 0,
    stateDir: state,
    reminderMs: 3_600_000,
    stopTimeoutMs: 1_000,
    journal,
  });
  const server = await startDaemonServer(daemon, metrics, logger, { port: 0, host: '127.0.0.1', journal });
  cleanups.push(async () => {
    await daemon.stop();
    await server.close();
    await api.close();
  });
  await daemon.start();
  await daemon.idle();
  const get = async (path: string) => (await fetch(`${server.url}${path}`)).text();
  return {
    logs,
    daemon,
    get,
    status: JSON.parse(await get('/status')),
    page: await get('/'),
    runs: JSON.parse(await get('/api/runs')),
  };
}

it('an unreachable API: an error-level line with the code, the endpoint and the reason, the same message everywhere', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-failures-'));
  writeFileSync(join(dir, 'org.yaml'), 'organization: org_t\nteams:\n  - title: Writers\n');
  const apiUrl = `http://127.0.0.1:${await closedPort()}`;
  const { logs, daemon, get, status, page, runs } = await runDaemon(new FolderSource(dir), apiUrl);

  const failed = logs.find((l) => l.level === 50 && /sync failed/.test(l.msg));
  expect(failed, JSON.stringify(logs)).toBeDefined();
  expect(failed!['code']).toBe('network');
  expect(failed!['endpoint']).toMatch(/^GET \/orgs\/\{org\}\//);
  expect(failed!['apiUrl']).toBe(`${apiUrl}/v1`);
  expect(failed!.msg).toMatch(/ECONNREFUSED/);

  const message = status.lastSync.message as string;
  expect(failed!.msg).toBe(`sync failed: ${message}`);
  expect(message).toMatch(/cannot read the live state of org_t: GET \/orgs\/\{org\}\/.*ECONNREFUSED/);
  expect(status.lastSync.error).toMatchObject({ code: 'network', endpoint: failed!['endpoint'] });
  expect(page).toContain(message.replace(/'/g, '&#39;'));
  expect(runs.runs[0].errors).toContain(message);

  // A drift check is a run too: the same code, endpoint and reason.
  daemon.trigger('drift');
  await daemon.idle();
  const drift = logs.find((l) => l.level === 50 && /drift check failed/.test(l.msg));
  expect(drift).toMatchObject({ code: 'network', endpoint: failed!['endpoint'], apiUrl: `${apiUrl}/v1` });
  const driftError = JSON.parse(await get('/status')).lastDrift.error as string;
  expect(driftError).toMatch(/ECONNREFUSED/);
  expect(drift!.msg).toBe(`drift check failed; drift is unknown: ${driftError}`);
});

it('an invalid config in a git source: paths relative to the repository, with the revision', async () => {
  const repo = makeRepo({ 'config/demo.yaml': 'organization: org_t\nteams:\n  - title: 5\n    nope: 1\n' });
  const work = mkdtempSync(join(tmpdir(), 'docsync-failures-git-'));
  const source = new GitSource({ url: repo.url, branch: 'main', path: 'config', workDir: work });
  const { logs, status, page, runs } = await runDaemon(source, `http://127.0.0.1:${await closedPort()}`);

  const revision = (status.source.revision as string).slice(0, 7);
  const issue = status.lastSync.issues[0];
  expect(issue.file).toBe('config/demo.yaml');
  const failed = logs.find((l) => l.level === 50 && /sync failed/.test(l.msg));
  expect(failed!['code']).toBe('invalid-config');
  expect(failed!['file']).toBe(`config/demo.yaml:${issue.line}:${issue.column}`);
  expect(failed!['revision']).toBe(status.source.revision);
  expect(status.lastSync.message).toContain(`config/demo.yaml:${issue.line}:${issue.column}`);
  expect(status.lastSync.message).toContain(`at revision ${revision}`);
  expect(JSON.stringify(logs)).not.toContain(work);
  expect(page).not.toContain(work);
  expect(page).toContain(`config/demo.yaml:${issue.line}:${issue.column}`);
  expect(runs.runs[0].errors.join('\n')).toContain(`config/demo.yaml:${issue.line}:${issue.column}`);
});
