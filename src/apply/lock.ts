import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export type LockInfo = { pid: number; host: string; startedAt: string; owner: string };

export class LockError extends Error {
  readonly code = 'locked';
  constructor(
    message: string,
    readonly holder?: LockInfo,
  ) {
    super(message);
  }
}

/** A lock older than this is stale even when its process cannot be checked (another host). */
const STALE_MS = 6 * 60 * 60 * 1000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One writer per organization: an exclusive lock file in the state folder. A lock whose process
 * is gone (same host) or that is older than six hours is stale and taken over.
 * Waits up to `waitMs` for a held lock, then refuses with a message naming the holder.
 */
export async function acquireLock(
  stateDir: string,
  org: string,
  owner: string,
  waitMs = 0,
): Promise<() => Promise<void>> {
  const dir = join(stateDir, 'locks');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${org.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
  const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), owner };
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
    let holder: LockInfo | undefined;
    try {
      holder = JSON.parse(await readFile(file, 'utf8')) as LockInfo;
    } catch {
      holder = undefined;
    }
    const age = await stat(file)
      .then((s) => Date.now() - s.mtimeMs)
      .catch(() => 0);
    const stale = holder ? (holder.host === hostname() && !alive(holder.pid)) || age > STALE_MS : age > 5_000;
    if (stale) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline)
      throw new LockError(
        holder
          ? `organization ${org} is locked by ${holder.owner} (pid ${holder.pid} on ${holder.host}) since ${holder.startedAt}; another apply is running`
          : `organization ${org} is locked (${file})`,
        holder,
      );
    await sleep(Math.min(500, Math.max(50, deadline - Date.now())));
  }
}
