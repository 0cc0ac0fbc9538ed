import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { exampleSeed, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { ROOT, runMain, spawnCli, until } from '../helpers/cli.js';
import { duplicates } from '../helpers/invariants.js';
import { rng } from '../helpers/random-state.js';

const config = join(ROOT, 'config');
const envFor = (emu: Emulator, state: string) => ({
  DOCSYNC_API_URL: emu.url,
  DOCSYNC_TOKEN: TOKEN,
  DOCSYNC_STATE_DIR: state,
  DOCSYNC_LOG_LEVEL: 'warn',
});

describe('crash matrix: kill -9 during apply, then apply again', () => {
  it('converges with no duplicates for 6 seeded kill points, one in each sixth of the apply (and takes over the stale lock)', async () => {
    const random = rng(Number(process.env['DOCSYNC_CRASH_SEED'] ?? 5));
    // Kill points are drawn up front, so a seed names the same runs whatever their timing. One in
    // each sixth of the demo's 22 writes: every stretch of the apply is cut, from its first write
    // to its last, with no two runs at the same point (ten free draws repeated some points and
    // left stretches uncut, for nearly twice the processes).
    const WRITES = 22;
    const RUNS = 6;
    const killPoints = Array.from({ length: RUNS }, (_, i) => {
      const from = Math.floor((i * WRITES) / RUNS) + 1;
      const to = Math.floor(((i + 1) * WRITES) / RUNS);
      return from + Math.floor(random() * (to - from + 1));
    });
    const crashAndRecover = async (run: number, k: number) => {
      const emu = await withEmulator({ seed: exampleSeed() });
      const state = mkdtempSync(join(tmpdir(), 'docsync-crash-'));
      try {
        emu.setFaults({ latencyMs: 25 });
        const child = spawnCli(['apply', '--config', config, '--yes'], envFor(emu, state));
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          child.on('exit', (_code, signal) => resolve(signal)),
        );
        await until(() => writes(emu).length >= k, 60_000, 5);
        child.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');
        emu.setFaults({});
        const again = await runMain(['apply', '--config', config, '--yes'], envFor(emu, state));
        expect(again.code, again.stderr).toBe(0);
        const plan = await runMain(['plan', '--config', config, '--detailed-exitcode'], envFor(emu, state));
        expect(plan.code, `run ${run} (k=${k}): ${plan.stdout}`).toBe(0);
        expect(duplicates(emu.state())).toEqual([]);
      } finally {
        await emu.close();
      }
    };
    // Three runs at a time: each has its own emulator and state folder, and the kill point is a
    // count of writes, not a time, so a slower run still dies at the same step.
    for (let run = 0; run < killPoints.length; run += 3)
      await Promise.all(killPoints.slice(run, run + 3).map((k, i) => crashAndRecover(run + i, k)));
  }, 180_000);
});

describe('one writer per organization', () => {
  it('a second apply refuses with a clear message while the first holds the lock', async () => {
    const emu = await withEmulator({ seed: exampleSeed() });
    const state = mkdtempSync(join(tmpdir(), 'docsync-lock-'));
    try {
      // The first apply's first write waits until released, so it holds the lock for as long as
      // the second apply needs to start, however loaded the machine is.
      const hold = emu.holdWrites();
      const first = spawnCli(['apply', '--config', config, '--yes'], envFor(emu, state));
      let firstOut = '';
      first.stdout!.on('data', (d: Buffer) => (firstOut += d.toString()));
      const firstDone = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
      await until(() => hold.waiting() >= 1, 60_000, 10);
      const second = await runMain(['apply', '--config', config, '--yes'], envFor(emu, state));
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/organization org_demo is locked by docsync apply \(pid \d+/);
      hold.release();
      expect(await firstDone).toBe(0);
      expect(firstOut).toMatch(/0 failed/);
      const third = await runMain(['apply', '--config', config, '--yes'], envFor(emu, state));
      expect(third.code).toBe(0);
      expect(third.stdout).toContain('No changes');
    } finally {
      await emu.close();
    }
  }, 60_000);
});
