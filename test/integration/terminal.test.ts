import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { CLI_NODE_FLAGS, ROOT, runMain } from '../helpers/cli.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

const config = join(ROOT, 'config');

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('terminal output', () => {
  let emu: Emulator | undefined;
  afterEach(async () => emu?.close());

  it('a refused connection names host and port, and a failed read prints no plan summary', async () => {
    const port = await closedPort();
    const r = await runMain(['plan', '--config', config], {
      DOCSYNC_API_URL: `http://127.0.0.1:${port}`,
      DOCSYNC_TOKEN: TOKEN,
      DOCSYNC_LOG_LEVEL: 'warn',
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(r.stdout).toContain('No changes can be planned until the errors above are fixed.');
    expect(r.stdout).not.toMatch(/Plan: \d+ to create/);
  }, 90_000);

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript && !process.env['CI'])(
    'on a terminal, the plan is not interleaved with log lines unless --log-level asks for them',
    async () => {
      emu = await withEmulator({ seed: exampleSeed() });
      const cli = process.env['DOCSYNC_TEST_CLI']
        ? [process.execPath, ...CLI_NODE_FLAGS, process.env['DOCSYNC_TEST_CLI']]
        : [process.execPath, ...CLI_NODE_FLAGS, '--import', 'tsx', join(ROOT, 'src/cli.ts')];
      const onTty = (extra: string[]) =>
        new Promise<string>((resolve, reject) => {
          // util-linux `script` gives the CLI a pseudo-terminal for stdout and stderr.
          const line = [...cli, 'plan', '--config', config, ...extra].map((a) => `'${a}'`).join(' ');
          const child = spawn('script', ['-qefc', line, '/dev/null'], {
            cwd: ROOT,
            env: {
              ...process.env,
              NO_COLOR: '1',
              DOCSYNC_API_URL: emu!.url,
              DOCSYNC_TOKEN: TOKEN,
              DOCSYNC_LOG_LEVEL: '',
            },
          });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.on('error', reject);
          child.on('close', () => resolve(out.replace(/\r/g, '')));
          child.stdin.end();
        });
      // Two plans of the same emulator, which neither writes: at once.
      const [quiet, loud] = await Promise.all([onTty([]), onTty(['--log-level', 'info'])]);
      expect(quiet).toContain('+ site org_demo/sites/Developer Docs');
      expect(quiet).toMatch(/Plan: \d+ to create/);
      expect(quiet).not.toMatch(/ info /);
      expect(quiet).not.toContain('plan computed');
      expect(loud).toContain('plan computed');
    },
    90_000,
  );
});
