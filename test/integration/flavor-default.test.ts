import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { runMain } from '../helpers/cli.js';
import { startDaemonInProcess } from '../helpers/daemon.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

/**
 * The flavor follows the target: `current` for api.gitbook.com, `seed` for any other URL;
 * `--api-flavor` and DOCSYNC_API_FLAVOR override; every command's first log line states it.
 */
let emu: Emulator;
let config: string;
beforeAll(async () => {
  emu = await withEmulator({ seed: baseSeed(), flavor: 'current' });
  config = mkdtempSync(join(tmpdir(), 'docsync-flavor-'));
  writeFileSync(join(config, 'org.yaml'), 'organization: org_t\nteams: []\n');
});
afterAll(async () => emu?.close());

const firstLog = (stderr: string) => JSON.parse(stderr.split('\n').find((l) => l.startsWith('{'))!);
const env = (extra: Record<string, string | undefined> = {}) => ({
  DOCSYNC_TOKEN: TOKEN,
  DOCSYNC_API_URL: undefined,
  DOCSYNC_API_FLAVOR: undefined,
  ...extra,
});

describe('the API flavor of a command', () => {
  it('is seed for an emulator URL, current with --api-flavor; every command states it first, the daemon in /status too', async () => {
    const plain = await runMain(['plan', '--config', config, '--api-url', emu.url], env());
    expect(plain.code).toBe(0);
    expect(firstLog(plain.stderr)).toMatchObject({
      msg: 'api flavor',
      command: 'plan',
      apiFlavor: 'seed',
      apiFlavorFrom: 'api-url',
    });
    const flagged = await runMain(
      ['drift', '--config', config, '--api-url', emu.url, '--api-flavor', 'current'],
      env({ DOCSYNC_API_FLAVOR: 'seed' }),
    );
    expect(flagged.code).toBe(0);
    expect(firstLog(flagged.stderr)).toMatchObject({
      command: 'drift',
      apiFlavor: 'current',
      apiFlavorFrom: 'flag',
    });
    // The other commands that talk to the API say it first too.
    const state = mkdtempSync(join(tmpdir(), 'docsync-flavor-state-'));
    for (const args of [
      ['apply', '--config', config, '--yes', '--state-dir', state],
      ['export', '--org', 'org_t', '--out', join(state, 'export')],
    ]) {
      const r = await runMain([...args, '--api-url', emu.url], env({ DOCSYNC_API_FLAVOR: 'current' }));
      expect(r.code, r.stderr).toBe(0);
      expect(firstLog(r.stderr)).toMatchObject({
        command: args[0],
        apiFlavor: 'current',
        apiFlavorFrom: 'env',
      });
    }
    // The daemon: its first log line and /status.
    const daemon = await startDaemonInProcess(
      ['--config', config, '--mode', 'plan', '--interval', '1h', '--state-dir', state, '--api-url', emu.url],
      env({ DOCSYNC_API_FLAVOR: 'current', DOCSYNC_LOG_LEVEL: 'info' }),
    );
    try {
      expect((await daemon.status()).api).toEqual({ flavor: 'current' });
      expect(firstLog(daemon.stderr())).toMatchObject({ command: 'daemon', apiFlavor: 'current' });
    } finally {
      await daemon.stop();
    }
  });

  it('is current for api.gitbook.com unless DOCSYNC_API_FLAVOR says otherwise (no network: the config is invalid)', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'docsync-flavor-bad-'));
    writeFileSync(join(bad, 'org.yaml'), 'organization: 5\n');
    const real = await runMain(['plan', '--config', bad], env());
    expect(real.code).toBe(1);
    expect(firstLog(real.stderr)).toMatchObject({
      command: 'plan',
      apiUrl: 'https://api.gitbook.com',
      apiFlavor: 'current',
      apiFlavorFrom: 'api-url',
    });
    const told = await runMain(['plan', '--config', bad], env({ DOCSYNC_API_FLAVOR: 'seed' }));
    expect(firstLog(told.stderr)).toMatchObject({ apiFlavor: 'seed', apiFlavorFrom: 'env' });
    const wrong = await runMain(['plan', '--config', bad], env({ DOCSYNC_API_FLAVOR: 'newest' }));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('DOCSYNC_API_FLAVOR must be seed or current, got "newest"');
  });
});
