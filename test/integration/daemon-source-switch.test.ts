import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { baseSeed, call, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { until } from '../helpers/cli.js';
import { startDaemonInProcess, type InProcessDaemon } from '../helpers/daemon.js';
import { makeRepo } from '../helpers/git.js';

let emu: Emulator | undefined;
let running: InProcessDaemon | undefined;
afterEach(async () => {
  await running?.stop();
  await emu?.close();
});

const config = (team: string) => `organization: org_t\nteams:\n  - title: ${team}\n`;

it('a daemon restarted with another repository on the same state folder applies that one, never the old checkout', async () => {
  emu = await withEmulator({ seed: baseSeed() });
  const state = mkdtempSync(join(tmpdir(), 'docsync-switch-'));
  const teams = async () =>
    ((await call(emu!, 'GET', '/orgs/org_t/teams')).body.items as { title: string }[])
      .map((t) => t.title)
      .sort();
  const daemon = async (repo: string) => {
    running = await startDaemonInProcess(
      ['--repo', repo, '--mode', 'apply', '--interval', '1h', '--state-dir', state, '--stop-timeout', '5s'],
      { DOCSYNC_API_URL: emu!.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_LOG_LEVEL: 'warn' },
    );
    await until(async () => (await running!.status()).lastSync, 40_000);
    const status = await running.status();
    expect(await running.stop()).toBe(0);
    return status;
  };

  const a = makeRepo({ 'org.yaml': config('From A') });
  expect((await daemon(a.url)).lastSync.result).toBe('applied');
  expect(await teams()).toEqual(['From A']);

  // Repository B cannot be fetched: nothing is applied, in particular not A's checkout.
  const before = writes(emu).length;
  const unreachable = await daemon(`file://${join(state, 'no-such-repo')}`);
  expect(unreachable.source.lastFetchError).toMatch(/^git: /);
  expect(writes(emu).length).toBe(before);

  const b = makeRepo({ 'org.yaml': config('From B') });
  expect((await daemon(b.url)).lastSync.result).toBe('applied');
  expect(await teams()).toEqual(['From A', 'From B']);
}, 120_000);
