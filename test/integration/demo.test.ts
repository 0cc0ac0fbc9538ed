import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runMain, spawnCli, until } from '../helpers/cli.js';

const sh = promisify(execFile);

describe('npm start (docsync demo)', () => {
  let busy: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((r) => (busy ? busy.close(() => r()) : r()));
    busy = undefined;
  });

  it('names the flag to change when a port is busy', async () => {
    busy = createServer();
    await new Promise<void>((r) => busy!.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    const state = mkdtempSync(join(tmpdir(), 'docsync-demo-'));
    const daemonPort = await runMain(['demo', '--port', String(port), '--emulator-port', '0'], {
      DOCSYNC_STATE_DIR: state,
    });
    expect(daemonPort.code).toBe(1);
    expect(daemonPort.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    expect(daemonPort.stderr).toContain(`npm start -- --port ${port + 1}`);
    const emulatorPort = await runMain(['demo', '--port', '0', '--emulator-port', String(port)], {
      DOCSYNC_STATE_DIR: state,
    });
    expect(emulatorPort.code).toBe(1);
    expect(emulatorPort.stderr).toContain(`npm start -- --emulator-port ${port + 1}`);
  }, 60_000);

  it('prints commands that work when pasted: the drift command makes a team, the plan command plans; the daemon listens on loopback without DOCSYNC_HOST', async () => {
    const state = mkdtempSync(join(tmpdir(), 'docsync-demo-'));
    const child = spawnCli(['demo', '--port', '0', '--emulator-port', '0'], {
      DOCSYNC_STATE_DIR: state,
      DOCSYNC_HOST: undefined,
      DOCSYNC_LOG_LEVEL: 'warn',
    });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    try {
      await until(() => /^curl -s -X PUT .*$/m.test(stdout), 30_000);
      expect(stdout).not.toContain('[redacted]');
      const drift = /^curl -s -X PUT .*$/m.exec(stdout)![0];
      const made = await sh('sh', ['-c', drift]);
      expect(JSON.parse(made.stdout)).toMatchObject({ title: 'Made by hand' });

      // The whole line is pinned: two variables (a loopback URL, a token) and plain words, nothing a
      // shell would quote, expand or split otherwise. What a shell gives the command (these words
      // and variables, from the repository's root) is run in this process, not a second CLI process.
      const plan =
        /^DOCSYNC_API_URL=(http:\/\/127\.0\.0\.1:\d+) DOCSYNC_TOKEN=(dev-token) npx docsync (plan --config config)$/m.exec(
          stdout,
        );
      expect(plan, stdout).not.toBeNull();
      expect(resolve('config')).toBe(join(ROOT, 'config'));
      const pasted = await runMain(plan![3]!.split(' '), {
        DOCSYNC_API_URL: plan![1],
        DOCSYNC_TOKEN: plan![2],
      });
      expect(pasted.code, pasted.stderr).toBe(0);
      expect(pasted.stdout).toContain('docsync plan for org_demo');
      expect(pasted.stdout).not.toContain('error');

      // The status page it names, and the status command it prints.
      const page = /^page: +(http:\S+\/) /m.exec(stdout);
      expect(page, stdout).not.toBeNull();
      const html = await fetch(page![1]!);
      expect(html.status).toBe(200);
      expect(await html.text()).toContain('<title>docsync status</title>');
      const status = /^curl -s (http:\S+\/status)$/m.exec(stdout);
      expect(status, stdout).not.toBeNull();
      const curled = await sh('sh', ['-c', status![0]]);
      expect(JSON.parse(curled.stdout)).toMatchObject({ mode: 'apply' });
      // `demo --host` defaults to loopback (the image sets DOCSYNC_HOST: test/ci/image.test.ts).
      await until(() => /^docsync daemon /m.test(stdout), 30_000);
      expect(stdout).toMatch(/docsync daemon \(apply mode\) on http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  }, 90_000);
});
