import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockError } from '../apply/lock.js';
import { LocalCoordinator } from './local.js';

describe('LocalCoordinator', () => {
  const dirs: string[] = [];
  const stateDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'docsync-local-coord-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('refuses a second daemon on the same state folder, and allows one after the first stopped', async () => {
    const dir = stateDir();
    const first = new LocalCoordinator(dir, 'docsync daemon', () => {}, 'host-a');
    await first.startDaemon();
    const second = new LocalCoordinator(dir, 'docsync daemon', () => {}, 'host-a');
    await expect(second.startDaemon()).rejects.toBeInstanceOf(LockError);
    await first.stop();
    await second.startDaemon();
    await second.stop();
  });

  it('holds every organization asked for, ungated, and lets go of all of them', async () => {
    const dir = stateDir();
    const coord = new LocalCoordinator(dir, 'docsync apply', () => {});
    const holds = await coord.hold(['org_a', 'org_b'], 0);
    expect(holds.orgs).toEqual(['org_a', 'org_b']);
    expect(holds.gateFor('org_a')).toBeUndefined();
    // A second writer is refused while the first holds, and gets them once released.
    await expect(coord.hold(['org_b'], 0)).rejects.toBeInstanceOf(LockError);
    await holds.release();
    const again = await coord.hold(['org_b'], 0);
    await again.release();
  });

  it('a refused hold keeps nothing it took before the refusal', async () => {
    const dir = stateDir();
    const coord = new LocalCoordinator(dir, 'docsync apply', () => {});
    const b = await coord.hold(['org_b'], 0);
    await expect(coord.hold(['org_a', 'org_b'], 0)).rejects.toBeInstanceOf(LockError);
    const a = await coord.hold(['org_a'], 0);
    await a.release();
    await b.release();
  });
});
