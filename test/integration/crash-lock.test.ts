import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFile } from '../../src/apply/lock.js';
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
  it('converges with no duplicates for 6 seeded kill points, one in each sixth of the apply (and takes over the stale lock; a second apply refuses while the first holds it)', async () => {
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
        // The apply's first k − 1 writes pass; its k-th is held in the server, sent and unanswered,
        // when the process is killed, and processed after it died (an ambiguous write). The kill
        // point is exact whatever the machine's load, and nothing else is slowed.
        const hold = emu.holdWrites(k - 1);
        const child = spawnCli(['apply', '--config', config, '--yes'], envFor(emu, state));
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          child.on('exit', (_code, signal) => resolve(signal)),
        );
        await until(() => hold.waiting() >= 1, 60_000, 5);
        expect(writes(emu).length).toBeGreaterThanOrEqual(k);
        const holder = `docsync apply (pid ${child.pid} on ${hostname()}`;
        if (run === 0) {
          // One writer per organization: while this apply holds the lock (mid-apply, its k-th
          // write held), a second apply refuses with a clear message and leaves the lock as it was.
          const lock = readFileSync(lockFile(state, 'org_demo'), 'utf8');
          const second = await runMain(['apply', '--config', config, '--yes'], envFor(emu, state));
          expect(second.code).toBe(1);
          expect(second.stderr).toContain(`organization org_demo is locked by ${holder}`);
          expect(readFileSync(lockFile(state, 'org_demo'), 'utf8')).toBe(lock);
        }
        child.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');
        hold.release();
        const again = await runMain(['apply', '--config', config, '--yes'], envFor(emu, state));
        expect(again.code, again.stderr).toBe(0);
        expect(again.stderr).toContain(`taking over the lock of organization org_demo from ${holder}`);
        const plan = await runMain(['plan', '--config', config, '--detailed-exitcode'], envFor(emu, state));
        expect(plan.code, `run ${run} (k=${k}): ${plan.stdout}`).toBe(0);
        expect(duplicates(emu.state())).toEqual([]);
      } finally {
        await emu.close();
      }
    };
    // All at once: each has its own emulator and state folder, and the kill point is a count of
    // writes, not a time, so a slower run still dies at the same step.
    await Promise.all(killPoints.map((k, run) => crashAndRecover(run, k)));
  }, 180_000);
});
