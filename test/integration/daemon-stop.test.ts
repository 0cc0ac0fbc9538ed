import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { until } from '../helpers/cli.js';
import { startDaemonProcess } from '../helpers/daemon.js';

it('SIGTERM exits within --stop-timeout while a git fetch hangs', async () => {
  // A git "server" that accepts connections and never answers.
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const state = mkdtempSync(join(tmpdir(), 'docsync-stop-'));
  try {
    const daemon = await startDaemonProcess(
      ['--repo', `http://127.0.0.1:${port}/config.git`, '--stop-timeout', '3s', '--state-dir', state],
      { DOCSYNC_API_URL: 'http://127.0.0.1:9', DOCSYNC_TOKEN: 'stop-test-token', DOCSYNC_LOG_LEVEL: 'info' },
    );
    await until(() => sockets.length > 0, 30_000);
    const t0 = Date.now();
    daemon.child.kill('SIGTERM');
    expect(await daemon.exit).toBe(0);
    // --stop-timeout 3s, plus process teardown on a loaded machine; before the fix it ran on for minutes.
    expect(Date.now() - t0).toBeLessThan(8_000);
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
});
