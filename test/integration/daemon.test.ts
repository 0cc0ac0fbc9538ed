import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/daemon/webhook.js';
import type { Emulator } from '../../src/emulator/server.js';
import { call, exampleSeed, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { ROOT, until } from '../helpers/cli.js';
import { postDeclaring, startDaemonInProcess, type InProcessDaemon } from '../helpers/daemon.js';
import { makeRepo } from '../helpers/git.js';

const demoConfig = readFileSync(join(ROOT, 'config', 'demo.yaml'), 'utf8');
const SECRET = 'hook-secret-123';

type Running = InProcessDaemon;

let running: Running | undefined;
let emu: Emulator | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await emu?.close();
  emu = undefined;
});

async function startDaemon(args: string[]): Promise<Running> {
  const state = mkdtempSync(join(tmpdir(), 'docsync-daemon-'));
  return startDaemonInProcess(['--state-dir', state, ...args], {
    DOCSYNC_API_URL: emu!.url,
    DOCSYNC_TOKEN: TOKEN,
    DOCSYNC_LOG_LEVEL: 'info',
  });
}

const status = async (r: Running) => (await (await fetch(`${r.url}/status`)).json()) as any;
/** The last sync applied this revision (one status read: both fields from the same answer). */
const synced = (s: any, revision: string) =>
  s.lastSync?.revision === revision && s.lastSync?.result === 'applied';
/**
 * Whether the daemon logged, past `from` (an offset in its stderr, kept in memory), a line holding
 * every one of `parts`. The waits below check this first and read /status or the emulator only
 * once it holds: polling those every 100 ms cost an HTTP exchange, on both sides, per check (about
 * 140 over the file). What they assert is still read from /status and the emulator.
 */
const logged = (r: Running, from: number, ...parts: string[]) =>
  r
    .stderr()
    .slice(from)
    .split('\n')
    .some((line) => parts.every((part) => line.includes(part)));
/** The end of a sync (`sync finished`, `sync failed`, `sync refused`), of a drift check. */
const SYNC = '"msg":"sync ';
const DRIFT_CHECKED = '"msg":"drift checked"';
const applied = '"result":"applied"';
/** Until the daemon's first sync is applied (logged, then read from /status). */
const firstApplied = (r: Running) =>
  until(async () => logged(r, 0, SYNC, applied) && (await status(r)).lastSync?.result === 'applied', 40_000);
const teams = async () =>
  (await call(emu!, 'GET', '/orgs/org_demo/teams')).body.items.map((t: any) => t.title).sort();

describe('docsync daemon', () => {
  it('syncs from git: first sync converges, commits are applied on poll, webhooks sync at once, invalid configs apply nothing, a stop returns 0', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    const repo = makeRepo({ 'docs/config/demo.yaml': demoConfig });
    // Writes wait until released: the daemon is certainly not ready before its first sync.
    const hold = emu.holdWrites();
    running = await startDaemon([
      '--repo',
      repo.url,
      '--branch',
      'main',
      '--path',
      'docs/config',
      '--mode',
      'apply',
      // A poll of an unchanged branch is one `git ls-remote` (about 0.05 s of CPU): every second,
      // the commits below wait at most a second for the poll that applies them, not three.
      '--interval',
      '1s',
      '--webhook-secret',
      SECRET,
    ]);
    await until(() => hold.waiting() > 0, 60_000);
    expect((await fetch(`${running.url}/readyz`)).status).toBe(503);
    hold.release();
    await firstApplied(running!);
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    const first = await status(running);
    expect(first.api).toEqual({ flavor: 'seed' }); // an emulator URL: api.md's flavor
    expect(first.source).toMatchObject({
      type: 'git',
      branch: 'main',
      path: 'docs/config',
      subject: 'initial config',
    });
    expect(first.source.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(await teams()).toEqual(['Docs Writers']);

    // A commit is applied within the poll interval.
    const sha = repo.commit(
      {
        'docs/config/demo.yaml': demoConfig.replace(
          '  - title: Docs Writers',
          '  - title: Docs Writers\n  - title: Reviewers\n    members: []\n  - title: Placeholder',
        ),
      },
      'add teams',
    );
    await until(async () => logged(running!, 0, SYNC, sha) && synced(await status(running!), sha), 20_000);
    expect(await teams()).toEqual(['Docs Writers', 'Placeholder', 'Reviewers']);

    // Webhooks: a wrong signature is refused; a valid one triggers a sync at once (the two
    // commits below are pushed with one, rather than left to wait up to a second for the poll).
    const body = JSON.stringify({ ref: 'refs/heads/main' });
    expect(
      (
        await fetch(`${running.url}/hooks/git`, {
          method: 'POST',
          body,
          headers: { 'x-hub-signature-256': sign('wrong', body) },
        })
      ).status,
    ).toBe(401);
    expect((await fetch(`${running.url}/hooks/git`, { method: 'POST', body })).status).toBe(401);
    // A body declared too large is refused before it is read (a failed upload would prove nothing).
    expect(await postDeclaring(`${running.url}/hooks/git`, 1024 * 1024 + 10)).toBe(413);
    const push = async () =>
      (
        await fetch(`${running!.url}/hooks/git`, {
          method: 'POST',
          body,
          headers: { 'x-hub-signature-256': sign(SECRET, body), 'x-github-event': 'push' },
        })
      ).status;

    // An invalid config is reported and nothing is applied.
    const before = writes(emu).length;
    const bad = repo.commit(
      { 'docs/config/demo.yaml': demoConfig.replace('visibility: public', 'visibility: everyone') },
      'break it',
    );
    expect(await push()).toBe(202);
    await until(
      async () => logged(running!, 0, SYNC, bad) && (await status(running!)).lastSync?.revision === bad,
      40_000,
    );
    const invalid = await status(running);
    expect(invalid.lastSync.result).toBe('invalid-config');
    expect(invalid.configValid).toBe(false);
    expect(invalid.lastSync.issues[0]).toMatchObject({
      file: expect.stringContaining('demo.yaml'),
      path: 'sites[0].visibility',
      code: 'invalid-value',
    });
    expect(writes(emu).length).toBe(before);

    const fixed = repo.commit({ 'docs/config/demo.yaml': demoConfig }, 'fix it');
    expect(await push()).toBe(202);
    await until(
      async () => logged(running!, 0, SYNC, fixed) && synced(await status(running!), fixed),
      20_000,
    );
    expect(await teams()).toEqual(['Docs Writers']);

    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    for (const line of metrics.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      expect(line).toMatch(
        /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/,
      );
    }
    expect(metrics).toMatch(/docsync_sync_total\{result="applied"\} [1-9]/);
    expect(metrics).toMatch(/docsync_changes_applied_total\{kind="team",action="create"\} [1-9]/);
    expect(metrics).toMatch(
      /docsync_api_requests_total\{method="GET",route="\/orgs\/\{org\}\/sites",status="200"\}/,
    );
    expect(metrics).toContain(`docsync_source_info{revision="${fixed}"} 1`);
    expect(metrics).toContain('docsync_last_success_timestamp_seconds');

    expect(await running.stop()).toBe(0);
    expect(running.stderr()).not.toContain(TOKEN);
  }, 180_000);

  it('detects drift on schedule: corrects it in apply mode, only reports it in plan mode; keeps the run history across restarts', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    const dir = mkdtempSync(join(tmpdir(), 'docsync-folder-'));
    const stateDir = join(dir, 'state');
    const repo = makeRepo({ 'demo.yaml': demoConfig });
    const report = join(dir, 'drift.md');
    running = await startDaemon([
      '--repo',
      repo.url,
      '--mode',
      'apply',
      '--interval',
      '1h',
      '--drift-cron',
      '*/2 * * * * *',
      '--drift-report',
      report,
      '--state-dir',
      stateDir,
    ]);
    await firstApplied(running!);
    const put = running.stderr().length;
    const extra = (await call(emu, 'PUT', '/orgs/org_demo/teams', { title: 'Made by hand' })).body;
    // lastDrift.corrected is set once the heal finished, which is after the team disappears.
    await until(
      async () =>
        logged(running!, put, DRIFT_CHECKED, '"drifted":true') &&
        !(await teams()).includes('Made by hand') &&
        (await status(running!)).lastDrift?.corrected,
      40_000,
    );
    const s = await status(running);
    expect(s.lastDrift).toMatchObject({ drifted: true, corrected: true });
    expect(readFileSync(report, 'utf8')).toContain('Made by hand');
    expect(extra.id).toBeTruthy();

    // The run history: the startup sync, drift checks and the self-heal that removed the team.
    const runs = async (query = '') =>
      (await (await fetch(`${running!.url}/api/runs${query}`)).json()) as any;
    const heal = await until(async () =>
      (await runs('?limit=100')).runs.find((r: any) => r.trigger === 'self-heal' && r.result === 'applied'),
    );
    const all = (await runs('?limit=100')).runs;
    expect(all.map((r: any) => r.seq)).toEqual([...all.map((r: any) => r.seq)].sort((a, b) => b - a));
    expect(all.at(-1)).toMatchObject({ trigger: 'startup', type: 'sync', result: 'applied' });
    expect(all.at(-1).revision).toMatch(/^[0-9a-f]{40}$/);
    expect(all.some((r: any) => r.type === 'drift' && r.result === 'drifted')).toBe(true);
    expect(heal.counts).toMatchObject({ applied: 1, failed: 0 });
    expect(heal.changes).toBeUndefined();
    const detail = (await (await fetch(`${running.url}/api/runs/${heal.id}`)).json()) as any;
    expect(detail.changes).toEqual([
      expect.objectContaining({
        action: 'delete',
        kind: 'team',
        status: 'applied',
        address: 'org_demo/teams/Made by hand',
      }),
    ]);
    const page1 = await runs('?limit=1');
    expect(page1.runs).toHaveLength(1);
    const page2 = await runs(`?limit=1&cursor=${page1.nextCursor}`);
    expect(page2.runs[0].seq).toBeLessThan(page1.runs[0].seq);
    expect((await fetch(`${running.url}/api/runs?limit=0`)).status).toBe(400);
    expect((await fetch(`${running.url}/api/runs?cursor=abc`)).status).toBe(400);
    expect((await fetch(`${running.url}/api/runs/nope`)).status).toBe(404);
    expect(await running.stop()).toBe(0);

    running = await startDaemon([
      '--repo',
      repo.url,
      '--mode',
      'plan',
      '--interval',
      '1h',
      '--drift-cron',
      '*/2 * * * * *',
      '--state-dir',
      stateDir,
    ]);
    await until(
      async () =>
        logged(running!, 0, SYNC, '"result":"no-changes"') &&
        (await status(running!)).lastSync?.result === 'no-changes',
      40_000,
    );
    const again = running.stderr().length;
    await call(emu, 'PUT', '/orgs/org_demo/teams', { title: 'Made by hand again' });
    const writesBefore = writes(emu).length;
    await until(
      async () =>
        logged(running!, again, DRIFT_CHECKED, '"drifted":true') &&
        (await status(running!)).lastDrift?.drifted === true,
      40_000,
    );
    const drift = await status(running);
    expect(drift.lastDrift).toMatchObject({ drifted: true, corrected: false, summary: { delete: 1 } });
    expect(writes(emu).length).toBe(writesBefore);
    expect(await teams()).toContain('Made by hand again');
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/docsync_drift_changes [1-9]/);
    // The history of the first process survived the restart.
    expect((await fetch(`${running.url}/api/runs/${heal.id}`)).status).toBe(200);
    expect(await running.stop()).toBe(0);
  }, 180_000);

  it('watches a local folder with --config; --ui=false turns the status page off', async () => {
    emu = await withEmulator({ seed: exampleSeed() });
    const dir = mkdtempSync(join(tmpdir(), 'docsync-watch-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'demo.yaml'), demoConfig);
    // Polling stays on as the fallback of watching, as in production.
    running = await startDaemon(['--config', dir, '--mode', 'apply', '--interval', '2s', '--ui=false']);
    await firstApplied(running!);
    expect((await fetch(`${running.url}/`)).status).toBe(404);
    expect((await fetch(`${running.url}/api/runs`)).status).toBe(200);
    const edited = running.stderr().length;
    writeFileSync(
      join(dir, 'demo.yaml'),
      demoConfig.replace('  - title: Docs Writers', '  - title: Docs Writers\n  - title: Watched'),
    );
    await until(
      async () => logged(running!, edited, SYNC, applied) && (await teams()).includes('Watched'),
      40_000,
    );
    expect(await running.stop()).toBe(0);
  }, 150_000);
});

describe('drift notifications', () => {
  it('notifies once per distinct drift, with a Slack-compatible text; --no-self-heal only reports', async () => {
    const { createServer } = await import('node:http');
    const received: any[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    emu = await withEmulator({ seed: exampleSeed() });
    try {
      const repo = makeRepo({ 'demo.yaml': demoConfig });
      running = await startDaemon([
        '--repo',
        repo.url,
        '--mode',
        'apply',
        '--no-self-heal',
        '--interval',
        '1h',
        '--drift-cron',
        '* * * * * *',
        '--notify-url',
        hookUrl,
      ]);
      await firstApplied(running!);
      await call(emu, 'PUT', '/orgs/org_demo/teams', { title: 'Drift one' });
      await until(() => received.length >= 1, 40_000);
      const checks = async () => (await status(running!)).lastDrift?.at;
      // Two more checks see the same drift: no second notification.
      /** Until a check after this call: its line logged, then /status showing another check. */
      const nextCheck = async () => {
        const from = running!.stderr().length;
        const at = await checks();
        await until(async () => logged(running!, from, DRIFT_CHECKED) && (await checks()) !== at, 10_000);
      };
      await nextCheck();
      await nextCheck();
      expect(received).toHaveLength(1);
      expect(received[0].text).toMatch(
        /docsync drift: live state differs from the configuration: 0 to create, 0 to update, 1 to delete/,
      );
      expect(await teams()).toContain('Drift one');
      await call(emu, 'PUT', '/orgs/org_demo/teams', { title: 'Drift two' });
      await until(() => received.length >= 2, 40_000);
      expect(received[1].summary).toMatchObject({ delete: 2 });
      expect(await running.stop()).toBe(0);
    } finally {
      await new Promise<void>((r) => hook.close(() => r()));
    }
  }, 150_000);
});
