import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Daemon } from '../../src/daemon/daemon.js';
import { createMetrics } from '../../src/daemon/metrics.js';
import { OrgControls } from '../../src/daemon/org-controls.js';
import { RunJournal } from '../../src/daemon/runs/journal.js';
import { RunStore } from '../../src/daemon/runs/run-store.js';
import { startDaemonServer } from '../../src/daemon/server.js';
import { createLogger } from '../../src/log/logger.js';
import { FolderSource } from '../../src/source/folder-source.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';

/**
 * Suspension and sync windows, in process against the emulator: a suspended organization (through
 * the API or its config) and one inside a deny window are planned and drift-checked but never
 * applied; the run record says why; /status, GET /api/orgs/{org}, the page and the metrics show
 * it; a suspension set through the API is kept in the state folder; a manual sync passes a window
 * whose manualSync says so.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(yaml: string) {
  const emu = await withEmulator({ seed: baseSeed(1) });
  cleanups.push(() => emu.close());
  const dir = mkdtempSync(join(tmpdir(), 'docsync-controls-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const [config, state] = [join(dir, 'config'), join(dir, 'state')];
  mkdirSync(config);
  mkdirSync(state);
  const write = (text: string) => writeFileSync(join(config, 'org.yaml'), text);
  write(yaml);
  const logger = createLogger('silent');
  const metrics = createMetrics();
  const api = client(emu);
  cleanups.push(() => api.close());
  const journal = new RunJournal(await RunStore.open(join(state, 'runs.jsonl')), logger);
  const controlsFile = join(state, 'suspended.json');
  const daemon = new Daemon(new FolderSource(config), api, logger, metrics, {
    mode: 'apply',
    intervalMs: 3_600_000,
    selfHeal: false,
    allowDeletes: 0,
    stateDir: state,
    reminderMs: 3_600_000,
    stopTimeoutMs: 2_000,
    journal,
    controls: await OrgControls.open(controlsFile),
  });
  const server = await startDaemonServer(daemon, metrics, logger, { port: 0, host: '127.0.0.1', journal });
  cleanups.push(async () => {
    await daemon.stop();
    await server.close();
  });
  await daemon.start();
  await daemon.idle();
  const request = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method, headers });
    const text = await res.text();
    return {
      status: res.status,
      body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
    };
  };
  /** Change the config and let the daemon fetch and sync it. */
  const sync = async (text: string) => {
    write(text);
    daemon.trigger('poll');
    await daemon.idle();
  };
  const fields = () =>
    emu
      .state()
      .organizations[0]!.customFields.map((f: { name: string }) => f.name)
      .sort();
  const lastRun = async () => (await request('GET', '/api/runs?limit=1')).body.runs[0];
  return { emu, daemon, metrics, request, sync, fields, lastRun, controlsFile };
}

const config = (names: string[], extra = '') =>
  `organization: org_t\n${extra}customFields:\n${names.map((n) => `  - { name: ${n}, type: text }\n`).join('')}`;

describe('suspend and resume', () => {
  it('a suspended organization is planned, never applied; the suspension outlives the daemon; resume applies', async () => {
    const t = await setUp(config(['a']));
    expect(t.fields()).toEqual(['a']);

    const suspended = await t.request('POST', '/api/orgs/org_t/suspend');
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({
      organization: 'org_t',
      controls: { suspended: true, applyAllowed: false },
    });

    await t.sync(config(['a', 'b']));
    expect(t.fields()).toEqual(['a']);
    const run = await t.lastRun();
    expect(run.result).toBe('planned');
    expect(run.note).toMatch(/^apply skipped: the organization is suspended through the API since /);
    expect(run.counts).toMatchObject({ planned: 1, applied: 0 });

    // Drift is still checked and reported.
    t.daemon.trigger('drift');
    await t.daemon.idle();
    expect(t.daemon.status.lastDrift).toMatchObject({ drifted: true, changes: 1 });

    const status = (await t.request('GET', '/status')).body;
    expect(status.organizations.org_t.controls).toMatchObject({ suspended: true, suspension: { api: {} } });
    expect((await t.request('GET', '/api/orgs/org_t')).body).toMatchObject({
      organization: 'org_t',
      configured: true,
      controls: { suspended: true },
    });
    const metrics = await t.metrics.registry.metrics();
    expect(metrics).toContain('docsync_org_suspended{org="org_t"} 1');
    expect(metrics).toContain('docsync_org_apply_blocked{org="org_t"} 1');
    const page = (await t.request('GET', '/')).body as string;
    expect(page).toContain('suspended');
    expect(page).toContain('apply skipped: the organization is suspended');

    // What a restarted daemon loads from its state folder.
    expect((await OrgControls.open(t.controlsFile)).suspendedThroughApi()).toEqual(['org_t']);

    const resumed = await t.request('POST', '/api/orgs/org_t/resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body.controls).toMatchObject({ suspended: false, applyAllowed: true });
    await t.sync(config(['a', 'b', 'c']));
    expect(t.fields()).toEqual(['a', 'b', 'c']);
    expect((await OrgControls.open(t.controlsFile)).suspendedThroughApi()).toEqual([]);
    expect(await t.metrics.registry.metrics()).toContain('docsync_org_suspended{org="org_t"} 0');
  });

  it('suspended: true in the config suspends too, and the API cannot resume it', async () => {
    const t = await setUp(config(['a'], 'suspended: true\n'));
    expect(t.fields()).toEqual([]);
    expect((await t.lastRun()).note).toMatch(/suspended in the config \(suspended: true/);
    const resumed = await t.request('POST', '/api/orgs/org_t/resume');
    expect(resumed.status).toBe(409);
    expect(resumed.body.error).toMatch(/its config says suspended: true, which only a config change lifts/);
    await t.sync(config(['a']));
    expect(t.fields()).toEqual(['a']);
  });

  it('refuses an unknown organization, a browser, and the wrong method', async () => {
    const t = await setUp(config(['a']));
    const unknown = await t.request('POST', '/api/orgs/org_nope/suspend');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/unknown organization org_nope/);
    const browser = await t.request('POST', '/api/orgs/org_t/suspend', { origin: 'https://evil.example' });
    expect(browser.status).toBe(403);
    expect((await t.request('GET', '/api/orgs/org_t/suspend')).status).toBe(405);
    expect(t.daemon.controls.suspendedThroughApi()).toEqual([]);
  });
});

describe('sync windows', () => {
  // Always open (it starts every minute and lasts an hour).
  const window = (manualSync: boolean) =>
    `policy:\n  syncWindows:\n    - { kind: deny, schedule: "* * * * *", duration: 1h, manualSync: ${manualSync} }\n`;

  it('a deny window blocks apply, drift is still reported, and a manual sync passes with manualSync', async () => {
    const t = await setUp(config(['a'], window(true)));
    expect(t.fields()).toEqual([]);
    const run = await t.lastRun();
    expect(run.result).toBe('planned');
    expect(run.note).toMatch(/^apply skipped: deny window "\* \* \* \* \*" \(1h, UTC\) open until /);

    t.daemon.trigger('drift');
    await t.daemon.idle();
    expect(t.daemon.status.lastDrift).toMatchObject({ drifted: true });

    const org = (await t.request('GET', '/api/orgs/org_t')).body;
    expect(org.controls).toMatchObject({
      suspended: false,
      applyAllowed: false,
      manualSyncAllowed: true,
      syncWindows: [{ kind: 'deny', active: true, manualSync: true }],
    });
    expect(await t.metrics.registry.metrics()).toContain('docsync_org_apply_blocked{org="org_t"} 1');

    const manual = await t.request('POST', '/api/orgs/org_t/sync');
    expect(manual.status).toBe(202);
    await t.daemon.idle();
    expect(t.fields()).toEqual(['a']);
    expect(await t.lastRun()).toMatchObject({
      trigger: 'manual',
      result: 'applied',
      verify: { converged: true },
    });
  });

  it('without manualSync, a manual sync is blocked too', async () => {
    const t = await setUp(config(['a'], window(false)));
    await t.request('POST', '/api/orgs/org_t/sync');
    await t.daemon.idle();
    expect(t.fields()).toEqual([]);
    expect(await t.lastRun()).toMatchObject({ trigger: 'manual', result: 'planned' });
  });
});
