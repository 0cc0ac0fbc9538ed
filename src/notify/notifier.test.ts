import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../log/logger.js';
import type { Observation } from './events.js';
import { Notifier, notifyPolicy } from './notifier.js';
import type { NotificationProvider } from './provider.js';

const fast = { maxAttempts: 1, timeoutMs: 2_000 };
beforeAll(() => Object.assign(notifyPolicy, fast));
afterAll(() => {
  delete notifyPolicy.maxAttempts;
  notifyPolicy.timeoutMs = 20_000;
});

const drift: Observation = {
  org: 'org_a',
  kind: 'drift',
  checksum: 'c1',
  counts: { create: 0, update: 0, delete: 1, move: 0 },
  changes: [],
  healing: false,
};

it('a failed delivery is logged (without the URL), never thrown, and sent when the state recurs; then once', async () => {
  const statuses = [500, 200, 200];
  const got: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      got.push(req.url ?? '');
      res.writeHead(statuses.shift() ?? 200);
      res.end('x');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let logs = '';
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logs += chunk.toString();
        done();
      },
    }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/notifierkey77`;
  const provider: NotificationProvider = {
    name: 'ops',
    type: 'slack',
    address: url,
    severity: 'info',
    events: ['drift', 'recovered'],
  };
  const notifier = new Notifier([provider], { logger });
  try {
    expect(await notifier.observe(drift)).toBe(false);
    expect(logs).toContain('notification failed');
    expect(logs).toContain('notification ops (slack) answered 500');
    expect(logs).not.toContain('notifierkey77');
    expect(await notifier.observe(drift)).toBe(true);
    expect(await notifier.observe(drift)).toBe(false);
    // In sync again: recovered, once; nothing for a second in-sync.
    expect(await notifier.observe({ org: 'org_a', kind: 'in-sync' })).toBe(true);
    expect(await notifier.observe({ org: 'org_a', kind: 'in-sync' })).toBe(false);
    await notifier.idle();
    expect(got).toHaveLength(3);
  } finally {
    server.close();
  }
});

it('without providers, observing still tracks conditions and sends nothing', async () => {
  const notifier = new Notifier([], { logger: createLogger('silent') });
  expect(await notifier.observe(drift)).toBe(false);
  await notifier.idle();
});
