import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { startDaemonInProcess } from '../helpers/daemon.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

it('without etcd, a second daemon on the same state folder refuses to start (decision 21)', async () => {
  const emu = await withEmulator({ seed: exampleSeed() });
  const state = mkdtempSync(join(tmpdir(), 'docsync-single-'));
  const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN, DOCSYNC_STATE_DIR: state };
  const args = ['--config', join(ROOT, 'config'), '--mode', 'plan', '--interval', '1h'];
  // The first daemon runs in this process (its lock names this live process); the second is a
  // process, whose refusal and exit code are what is tested.
  const first = await startDaemonInProcess(args, env);
  try {
    expect((await first.status()).coordination).toMatchObject({ backend: 'local' });
    const second = await runCli(['daemon', '--port', '0', '--host', '127.0.0.1', ...args], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`locked by docsync daemon \\(pid ${process.pid}\\b`));
  } finally {
    expect(await first.stop()).toBe(0);
    await emu.close();
    rmSync(state, { recursive: true, force: true });
  }
}, 60_000);
