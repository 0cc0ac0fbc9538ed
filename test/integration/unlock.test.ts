import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { acquireLock } from '../../src/apply/lock.js';
import { ROOT, runMain } from '../helpers/cli.js';
import { lockedElsewhere } from '../helpers/locks.js';

it('docsync unlock names the holder, host and age, clears a lock from elsewhere, keeps a live one', async () => {
  const { state, file } = lockedElsewhere('org_u');
  const cleared = await runMain(['unlock', '--org', 'org_u', '--state-dir', state, '--yes']);
  expect(cleared.code).toBe(0);
  expect(cleared.stdout).toMatch(/locked by docsync apply \(pid 4242 on build-runner-7, for \d+s\)/);
  expect(cleared.stdout).toContain(file);
  expect(existsSync(file)).toBe(false);

  const nothing = await runMain(['unlock', '--org', 'org_u', '--state-dir', state]);
  expect(nothing.code).toBe(0);
  expect(nothing.stdout).toMatch(/not locked/);

  // This test process holds it: alive on this host, so not cleared without --force.
  const release = await acquireLock(state, 'org_u', 'docsync daemon');
  const refused = await runMain(['unlock', '--org', 'org_u', '--state-dir', state]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/still running on this host/);
  expect(existsSync(file)).toBe(true);
  await release();
});

/** Run `docsync unlock` on a terminal (util-linux `script` gives it a pseudo-terminal) and answer its question. */
function unlockOnTty(state: string, answer: string): Promise<{ code: number | null; output: string }> {
  const cli = process.env['DOCSYNC_TEST_CLI']
    ? `'${process.execPath}' '${process.env['DOCSYNC_TEST_CLI']}'`
    : `'${process.execPath}' --import tsx '${join(ROOT, 'src/cli.ts')}'`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${cli} unlock --org org_t --state-dir '${state}'`, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!answered && output.includes("Only 'yes' will be accepted")) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

it('docsync unlock asks on a terminal: only "yes" removes the lock', async () => {
  // The two answers on two terminals at once, each on its own lock.
  const [refusing, accepting] = [
    lockedElsewhere('org_t', 'docsync-unlock-tty-'),
    lockedElsewhere('org_t', 'docsync-unlock-tty-'),
  ];
  const [no, yes] = await Promise.all([
    unlockOnTty(refusing.state, 'no'),
    unlockOnTty(accepting.state, 'yes'),
  ]);
  expect(no.output).toContain('Remove this lock?');
  expect(no.output).toContain('not unlocked');
  expect(no.code).toBe(1);
  expect(existsSync(refusing.file)).toBe(true);
  expect(yes.output).toContain('Remove this lock?');
  expect(yes.output).toContain('unlocked organization org_t');
  expect(yes.code).toBe(0);
  expect(existsSync(accepting.file)).toBe(false);
});
