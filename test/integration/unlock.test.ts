import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { acquireLock, lockFile } from '../../src/apply/lock.js';
import { runCli } from '../helpers/cli.js';

it('docsync unlock names the holder, host and age, clears a lock from elsewhere, keeps a live one', async () => {
  const state = mkdtempSync(join(tmpdir(), 'docsync-unlock-'));
  mkdirSync(join(state, 'locks'));
  const file = lockFile(state, 'org_u');
  writeFileSync(
    file,
    JSON.stringify({
      pid: 4242,
      host: 'build-runner-7',
      startedAt: new Date().toISOString(),
      owner: 'docsync apply',
    }),
  );
  const cleared = await runCli(['unlock', '--org', 'org_u', '--state-dir', state]);
  expect(cleared.code).toBe(0);
  expect(cleared.stdout).toMatch(/locked by docsync apply \(pid 4242 on build-runner-7, for \d+s\)/);
  expect(cleared.stdout).toContain(file);
  expect(existsSync(file)).toBe(false);

  const nothing = await runCli(['unlock', '--org', 'org_u', '--state-dir', state]);
  expect(nothing.code).toBe(0);
  expect(nothing.stdout).toMatch(/not locked/);

  // This test process holds it: alive on this host, so not cleared without --force.
  const release = await acquireLock(state, 'org_u', 'docsync daemon');
  const refused = await runCli(['unlock', '--org', 'org_u', '--state-dir', state]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/still running on this host/);
  expect(existsSync(file)).toBe(true);
  await release();
});
