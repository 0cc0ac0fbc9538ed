import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { runMain } from '../../test/helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const cli = runMain;

// The CLI's modules load before the timed run below: on a busy machine their first import alone
// could take a second or more of its 8 s bound.
beforeAll(async () => {
  await import('./main.js');
});

it('plan against a server that accepts and never answers: a bounded failure, logged at error level on stderr', async () => {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((s) => {
    sockets.add(s);
    s.on('data', (d: Buffer) => requests.push(...(d.toString('latin1').match(/^GET \S+/gm) ?? [])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'docsync-cli-failure-'));
  writeFileSync(join(dir, 'org.yaml'), 'organization: org_t\nteams:\n  - title: Writers\n');
  vi.stubEnv('DOCSYNC_TOKEN', 'cli-failure-token-0123456789');
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const r = await cli([
      'plan',
      '--config',
      dir,
      '--api-url',
      apiUrl,
      '--timeout',
      '1',
      '--log-level',
      'info',
    ]);
    expect(r.code).toBe(1);
    // Bounded by its attempts, not by the clock (a wall-time bound failed on a loaded machine):
    // the same request three times, each given up after --timeout, then the failure.
    expect(requests).toHaveLength(3);
    expect(new Set(requests).size).toBe(1);
    expect(requests[0]).toMatch(/^GET \/v1\/orgs\/org_t\//);
    const failed = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['level'] === 50);
    expect(failed, r.stderr).toBeDefined();
    expect(failed).toMatchObject({ command: 'plan', code: 'timeout', apiUrl: `${apiUrl}/v1` });
    expect(failed!['endpoint']).toMatch(/^GET \/orgs\/\{org\}\//);
    expect(failed!['msg']).toMatch(/plan failed: .*gave up after 3 attempts in \d+\.\d s: timeout/);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});
