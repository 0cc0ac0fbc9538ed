import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commonDefaults, defaultStateDir } from './context.js';

afterEach(() => vi.unstubAllEnvs());

describe('the default state folder (locks, git checkout, run history)', () => {
  it('is per user: $XDG_STATE_HOME/docsync, else ~/.local/state/docsync, never a shared temporary folder', () => {
    vi.stubEnv('DOCSYNC_STATE_DIR', '');
    vi.stubEnv('XDG_STATE_HOME', '/home/ann/.state');
    expect(defaultStateDir()).toBe('/home/ann/.state/docsync');
    expect(commonDefaults().stateDir).toBe('/home/ann/.state/docsync');
    // A relative XDG_STATE_HOME is invalid (XDG Base Directory spec): ignored.
    vi.stubEnv('XDG_STATE_HOME', 'relative/state');
    expect(defaultStateDir()).toBe(join(homedir(), '.local', 'state', 'docsync'));
    vi.stubEnv('XDG_STATE_HOME', '');
    expect(commonDefaults().stateDir).toBe(join(homedir(), '.local', 'state', 'docsync'));
    expect(commonDefaults().stateDir.startsWith(tmpdir())).toBe(false);
    expect(commonDefaults().stateDir).not.toBe('/tmp/docsync-state');
  });

  it('DOCSYNC_STATE_DIR overrides it', () => {
    vi.stubEnv('DOCSYNC_STATE_DIR', '/var/lib/docsync');
    expect(commonDefaults().stateDir).toBe('/var/lib/docsync');
  });
});
