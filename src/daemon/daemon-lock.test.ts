import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../api/client.js';
import { LockError } from '../apply/lock.js';
import { createLogger } from '../log/logger.js';
import type { ConfigSource } from '../source/types.js';
import { Daemon } from './daemon.js';
import { createMetrics } from './metrics.js';

/** A source that cannot be fetched: a run reads nothing and writes nothing. */
const offlineSource = (dir: string): ConfigSource => ({
  kind: 'folder',
  configDir: dir,
  refresh: () => Promise.reject(new Error('offline')),
  describe: () => ({ kind: 'folder' }),
});

describe('Daemon', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const daemonOn = (stateDir: string): Daemon => {
    const api = new ApiClient({ apiUrl: 'http://127.0.0.1:9', token: 'unused', maxAttempts: 1 });
    cleanups.push(() => api.close());
    const daemon = new Daemon(offlineSource(stateDir), api, createLogger('silent'), createMetrics(), {
      mode: 'plan',
      intervalMs: 3_600_000,
      selfHeal: false,
      allowDeletes: 0,
      stateDir,
      reminderMs: 3_600_000,
      stopTimeoutMs: 1_000,
    });
    cleanups.push(() => daemon.stop());
    return daemon;
  };

  it('without a coordinator given, holds the state folder: a second daemon on it refuses to start', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'docsync-daemon-'));
    cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }));
    const first = daemonOn(stateDir);
    await first.start();
    expect(first.status.coordination).toMatchObject({ backend: 'local' });
    const second = daemonOn(stateDir);
    await expect(second.start()).rejects.toBeInstanceOf(LockError);
    // Stopping lets go of the state folder: the next daemon starts.
    await first.stop();
    await second.start();
    await second.idle();
    expect(second.ready).toBe(true);
  });
});
