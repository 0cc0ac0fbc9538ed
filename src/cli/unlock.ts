import { describeHolder, inspectLock, removeLock } from '../apply/lock.js';
import { confirm } from './confirm.js';
import { err, out } from './output.js';

export type UnlockOptions = { org: string; stateDir: string; yes: boolean; force: boolean };

/**
 * `docsync unlock --org ID`: clear an organization's lock whose holder is gone. Names the holder,
 * its host and the lock's age; asks on a TTY, and off a terminal removes nothing without --yes. A holder that is provably still
 * running on this host is not unlocked without --force. Exit 0 unlocked or nothing to do, 1 not.
 */
export async function unlockCommand(opts: UnlockOptions): Promise<number> {
  const state = await inspectLock(opts.stateDir, opts.org);
  if (state.holderIs === 'none') {
    out(`organization ${opts.org} is not locked (no ${state.file})`);
    return 0;
  }
  out(`organization ${opts.org} is locked by ${describeHolder(state)}; lock file ${state.file}`);
  if (state.holderIs === 'alive' && !opts.force) {
    err(`error: pid ${state.holder!.pid} is still running on this host; stop it first, or pass --force`);
    return 1;
  }
  if (state.holderIs === 'unknown')
    out('its holder runs on another host (or cannot be read): make sure it is not running any more');
  if (!opts.yes && process.stdin.isTTY !== true) {
    err(
      'error: not unlocked: stdin is not a terminal, so there is no one to ask; pass --yes to remove the lock',
    );
    return 1;
  }
  if (!opts.yes && !(await confirm('Remove this lock?'))) {
    err('not unlocked');
    return 1;
  }
  await removeLock(state.file);
  out(`unlocked organization ${opts.org}`);
  return 0;
}
