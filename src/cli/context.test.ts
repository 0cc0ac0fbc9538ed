import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localDaemonCoordinator } from '../coord/local.js';
import { shownRoot } from '../config/load.js';
import { createLogger } from '../log/logger.js';
import { commonDefaults, defaultStateDir, sourceStateDir } from './context.js';

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

describe('a daemon state folder belongs to its source (run history, checkout, daemon lock)', () => {
  const base = { stateDir: '/home/ann/.local/state/docsync', stateDirGiven: false };
  const repo = { repo: 'https://github.com/acme/docs-config.git', branch: 'main', path: 'config' };

  it('differs between sources and is the same for the same source', () => {
    const a = sourceStateDir(base, repo);
    expect(a.startsWith(`${base.stateDir}/sources/docs-config-main-config-`)).toBe(true);
    expect(sourceStateDir(base, { ...repo, path: './config/' })).toBe(a);
    expect(sourceStateDir(base, { ...repo, branch: 'staging' })).not.toBe(a);
    expect(sourceStateDir(base, { ...repo, path: 'other' })).not.toBe(a);
    expect(sourceStateDir(base, { ...repo, repo: 'https://github.com/acme/handbook.git' })).not.toBe(a);
    const folder = mkdtempSync(join(tmpdir(), 'docsync-source-'));
    mkdirSync(join(folder, 'config'));
    symlinkSync(join(folder, 'config'), join(folder, 'link'));
    const f = sourceStateDir(base, { config: join(folder, 'config') });
    expect(sourceStateDir(base, { config: join(folder, 'link') })).toBe(f);
    expect(f).not.toBe(a);
    expect(sourceStateDir(base, { config: join(folder, 'elsewhere') })).not.toBe(f);
  });

  it('is the given folder itself with --state-dir or DOCSYNC_STATE_DIR', () => {
    expect(sourceStateDir({ stateDir: '/var/lib/docsync', stateDirGiven: true }, repo)).toBe(
      '/var/lib/docsync',
    );
  });

  it('two daemons on different sources both start; a second one on the same source refuses', async () => {
    const state = mkdtempSync(join(tmpdir(), 'docsync-two-daemons-'));
    const logger = createLogger('silent');
    const one = localDaemonCoordinator(state, logger, 'r', {}, sourceStateDir({ stateDir: state }, repo));
    const other = { ...repo, repo: 'https://github.com/acme/handbook.git' };
    const two = localDaemonCoordinator(state, logger, 'r', {}, sourceStateDir({ stateDir: state }, other));
    const same = localDaemonCoordinator(state, logger, 'r', {}, sourceStateDir({ stateDir: state }, repo));
    await one.startDaemon();
    try {
      await two.startDaemon();
      await expect(same.startDaemon()).rejects.toThrow(/locked/);
      await two.stop();
    } finally {
      await one.stop();
    }
  });
});

describe('config paths are shown from the config repository root', () => {
  it('is the git root; outside git the working directory when inside it, else the folder holding the config', () => {
    const repo = mkdtempSync(join(tmpdir(), 'docsync-shown-'));
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'config'));
    expect(shownRoot(join(repo, 'config'), '/elsewhere')).toBe(repo);
    const plain = mkdtempSync(join(tmpdir(), 'docsync-shown-plain-'));
    mkdirSync(join(plain, 'config'));
    expect(shownRoot(join(plain, 'config'), plain)).toBe(plain);
    expect(shownRoot(join(plain, 'config'), '/elsewhere')).toBe(plain);
  });
});
