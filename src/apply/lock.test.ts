import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, inspectLock, lockFile, type LockInfo } from './lock.js';

function stateWith(holder: LockInfo): string {
  const state = mkdtempSync(join(tmpdir(), 'docsync-lock-unit-'));
  mkdirSync(join(state, 'locks'));
  writeFileSync(lockFile(state, 'org_l'), JSON.stringify(holder));
  return state;
}

/** A PID that certainly belongs to no process any more: a child that already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

const base = { startedAt: new Date().toISOString(), owner: 'docsync apply' };

describe('organization locks', () => {
  it('takes over a lock whose holder died on this host, and says so', async () => {
    const state = stateWith({ ...base, pid: deadPid(), host: hostname() });
    const messages: string[] = [];
    const release = await acquireLock(state, 'org_l', 'test', 0, (m) => messages.push(m));
    expect(messages).toEqual([
      expect.stringMatching(/taking over the lock of organization org_l from docsync apply \(pid \d+/),
    ]);
    expect(JSON.parse(readFileSync(lockFile(state, 'org_l'), 'utf8')).pid).toBe(process.pid);
    await release();
    expect(existsSync(lockFile(state, 'org_l'))).toBe(false);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'takes over a lock whose PID was reused by another process',
    async () => {
      // The PID is alive (it is this very process), but its start time is not the holder's.
      const state = stateWith({ ...base, pid: process.pid, host: hostname(), processStart: '1' });
      expect((await inspectLock(state, 'org_l')).holderIs).toBe('gone');
      const messages: string[] = [];
      await (
        await acquireLock(state, 'org_l', 'test', 0, (m) => messages.push(m))
      )();
      expect(messages).toHaveLength(1);
    },
  );

  it('refuses a lock held on another host, naming holder, host, age, file and the way out', async () => {
    const state = stateWith({ ...base, pid: 4242, host: 'build-runner-7' });
    const error = await acquireLock(state, 'org_l', 'test').then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/locked by docsync apply \(pid 4242 on build-runner-7, for \d+s\)/);
    expect(error?.message).toContain(lockFile(state, 'org_l'));
    expect(error?.message).toContain(`docsync unlock --org org_l --state-dir ${state}`);
    expect(existsSync(lockFile(state, 'org_l'))).toBe(true);
  });

  it('refuses a lock held by a live process on this host', async () => {
    const state = mkdtempSync(join(tmpdir(), 'docsync-lock-unit-'));
    const release = await acquireLock(state, 'org_l', 'first');
    expect((await inspectLock(state, 'org_l')).holderIs).toBe('alive');
    await expect(acquireLock(state, 'org_l', 'second')).rejects.toThrow(/locked by first \(pid/);
    await release();
  });
});
