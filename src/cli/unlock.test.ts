import { existsSync } from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { lockedElsewhere } from '../../test/helpers/locks.js';
import { unlockCommand } from './unlock.js';

afterEach(() => vi.restoreAllMocks());

it('unlock off a terminal removes nothing without --yes, and says so', async () => {
  const { state, file } = lockedElsewhere('org_n', 'docsync-unlock-notty-');
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
  const tty = process.stdin.isTTY;
  process.stdin.isTTY = false;
  try {
    expect(await unlockCommand({ org: 'org_n', stateDir: state, yes: false, force: false })).toBe(1);
    expect(existsSync(file)).toBe(true);
    expect(stderr.join('')).toMatch(/not a terminal.*--yes/);
    expect(await unlockCommand({ org: 'org_n', stateDir: state, yes: true, force: false })).toBe(0);
    expect(existsSync(file)).toBe(false);
  } finally {
    process.stdin.isTTY = tty;
  }
});
