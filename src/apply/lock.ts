import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DocsyncError } from '../errors.js';

/**
 * One writer per organization: an exclusive lock file in the state folder (decision 7). The
 * module's surface is small on purpose (acquire, inspect, remove): another ownership backend
 * (etcd leases) sits next to it, not inside it.
 */
export type LockInfo = {
  pid: number;
  host: string;
  startedAt: string;
  owner: string;
  /** Linux: the kernel's boot id and the process's start time, to tell a reused PID apart. */
  bootId?: string;
  processStart?: string;
};

export class LockError extends DocsyncError<'locked'> {
  constructor(
    message: string,
    readonly holder?: LockInfo,
  ) {
    super('locked', message);
  }
}

/** What is known about an organization's lock. `gone`: provably dead (same host); `unknown`: cannot tell. */
export type LockState = {
  file: string;
  holder?: LockInfo;
  ageMs: number;
  holderIs: 'none' | 'alive' | 'gone' | 'unknown';
};

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The start time of a process in clock ticks since boot (Linux), to detect PID reuse. */
function processStart(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // Fields after the command name (which may hold spaces) start at field 3; starttime is field 22.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

const bootId = (): string | undefined => readProc('/proc/sys/kernel/random/boot_id')?.trim();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the holder is running: only decidable on the same host. */
function holderIs(holder: LockInfo): LockState['holderIs'] {
  if (holder.host !== hostname()) return 'unknown';
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return 'gone';
  if (!pidAlive(holder.pid)) return 'gone';
  const start = processStart(holder.pid);
  if (holder.processStart && start && holder.processStart !== start) return 'gone';
  return 'alive';
}

export function lockFile(stateDir: string, org: string): string {
  return join(stateDir, 'locks', `${org.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
}

/** Inspect an organization's lock without touching it. */
export async function inspectLock(stateDir: string, org: string): Promise<LockState> {
  const file = lockFile(stateDir, org);
  let mtime: number;
  try {
    mtime = (await stat(file)).mtimeMs;
  } catch {
    return { file, ageMs: 0, holderIs: 'none' };
  }
  const ageMs = Math.max(0, Date.now() - mtime);
  let holder: LockInfo | undefined;
  try {
    holder = JSON.parse(await readFile(file, 'utf8')) as LockInfo;
  } catch {
    holder = undefined;
  }
  return { file, ageMs, ...(holder ? { holder } : {}), holderIs: holder ? holderIs(holder) : 'unknown' };
}

export async function removeLock(file: string): Promise<void> {
  await rm(file, { force: true });
}

export function formatAge(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}

export function describeHolder(state: LockState): string {
  const h = state.holder;
  return h
    ? `${h.owner} (pid ${h.pid} on ${h.host}, for ${formatAge(state.ageMs)})`
    : `an unreadable lock (for ${formatAge(state.ageMs)})`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Take the organization's lock. A lock whose holder is provably gone (same host: dead PID, a
 * reused PID, or a reboot) is taken over and `onTakeover` says so; a lock file that stays
 * unreadable for 5 s is debris. Anything else is waited for up to `waitMs`, then refused with
 * the holder, the lock file and the command that clears it.
 */
export async function acquireLock(
  stateDir: string,
  org: string,
  owner: string,
  waitMs = 0,
  onTakeover?: (message: string) => void,
): Promise<() => Promise<void>> {
  const file = lockFile(stateDir, org);
  await mkdir(join(stateDir, 'locks'), { recursive: true });
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    owner,
    ...(bootId() ? { bootId: bootId()! } : {}),
    ...(processStart(process.pid) ? { processStart: processStart(process.pid)! } : {}),
  };
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(JSON.stringify(info));
      await handle.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const state = await inspectLock(stateDir, org);
    if (state.holderIs === 'gone' || (!state.holder && state.ageMs > 5_000)) {
      onTakeover?.(
        `taking over the lock of organization ${org} from ${describeHolder(state)}: its holder is gone`,
      );
      await removeLock(file);
      continue;
    }
    if (state.holderIs === 'none') continue;
    if (Date.now() >= deadline)
      throw new LockError(
        `organization ${org} is locked by ${describeHolder(state)}; lock file ${file}. ` +
          `If that process is gone, clear the lock with: docsync unlock --org ${org} --state-dir ${stateDir}`,
        state.holder,
      );
    await sleep(Math.min(500, Math.max(50, deadline - Date.now())));
  }
}
