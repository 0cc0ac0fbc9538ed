import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockFile } from '../../src/apply/lock.js';

/**
 * A fresh state folder with `org` locked by `docsync apply` as pid 4242 on another host
 * (`build-runner-7`), started now: a lock `docsync unlock` may clear. Its folder and lock file.
 */
export function lockedElsewhere(org: string, prefix = 'docsync-unlock-'): { state: string; file: string } {
  const state = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(state, 'locks'));
  const file = lockFile(state, org);
  const holder = {
    pid: 4242,
    host: 'build-runner-7',
    startedAt: new Date().toISOString(),
    owner: 'docsync apply',
  };
  writeFileSync(file, JSON.stringify(holder));
  return { state, file };
}
