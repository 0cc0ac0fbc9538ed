import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EtcdClient, EtcdError, MAX_ETCD_ANSWER_BYTES } from './etcd-client.js';
import { EtcdCoordinator } from './etcd.js';

/**
 * A hostile or broken etcd: the client must fail with a typed error, quickly, having taken in no
 * more than its bound (measured as the bytes the server managed to hand to the socket), and a
 * replica behind it must write nothing.
 */
describe('etcd answers are bounded in size and time', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  /** A server whose every answer is `answer(res)`; `sent()` counts the body bytes it wrote. */
  const serve = async (answer: (res: ServerResponse, count: (n: number) => void) => void) => {
    let sent = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(res, (n) => (sent += n)));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent };
  };

  /** An answer that never ends: `{"kvs":[` then filler as fast as the socket takes it. */
  const endless = (res: ServerResponse, count: (n: number) => void) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"kvs":[');
    const pump = () => {
      while (!res.destroyed) {
        count(chunk.length);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.on('error', () => undefined);
    pump();
  };

  /** An answer that trickles one byte every 50 ms, forever. */
  const trickle = (res: ServerResponse, count: (n: number) => void) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.on('error', () => undefined);
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      count(1);
      res.write(' ');
    }, 50);
    res.on('close', () => clearInterval(timer));
  };

  it('an endless answer fails as an EtcdError once it passes the bound, the rest never read', async () => {
    const etcd = await serve(endless);
    const client = new EtcdClient({ endpoints: [etcd.url], requestTimeoutMs: 10_000 });
    const started = performance.now();
    const error = await client.range('/docsync/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtcdError);
    expect((error as EtcdError).code).toBe('etcd');
    expect((error as Error).message).toMatch(/larger than 4194304 bytes/);
    expect(performance.now() - started).toBeLessThan(5000);
    // What the server got into the socket: the bound, plus what kernel buffers hold.
    expect(etcd.sent()).toBeLessThan(MAX_ETCD_ANSWER_BYTES + 16 * 1024 * 1024);
    await client.close();
  });

  it('a declared Content-Length past the bound is refused before reading the body', async () => {
    const etcd = await serve((res) => {
      res.writeHead(200, { 'content-length': String(1024 * 1024 * 1024) });
      res.write('{');
    });
    const client = new EtcdClient({ endpoints: [etcd.url], maxAnswerBytes: 1024 });
    await expect(client.grant(5)).rejects.toThrow(/larger than 1024 bytes/);
    await client.close();
  });

  it('an answer that trickles fails at the deadline, even though a byte arrives every 50 ms', async () => {
    const etcd = await serve(trickle);
    const client = new EtcdClient({ endpoints: [etcd.url], requestTimeoutMs: 500 });
    const started = performance.now();
    const error = await client.keepAlive('42').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtcdError);
    expect((error as Error).message).toMatch(/no complete answer within 500 ms/);
    expect(performance.now() - started).toBeLessThan(2000);
    await client.close();
  });

  it('a replica behind an endless etcd holds no lease and withholds every write', async () => {
    const etcd = await serve(endless);
    const client = new EtcdClient({ endpoints: [etcd.url], requestTimeoutMs: 2000 });
    const coordinator = new EtcdCoordinator({
      client,
      replica: 'r1',
      role: 'replica',
      ttlMs: 3000,
      logger: pino({ level: 'silent' }),
    });
    await coordinator.start();
    coordinator.manage(['org_a']);
    const holds = await coordinator.hold(['org_a'], 0);
    expect(holds.orgs).toEqual([]);
    expect(coordinator.owns('org_a')).toBe(false);
    expect(coordinator.session().ok).toBe(false);
    await holds.release();
    await coordinator.stop(); // closes the client too
  });

  it('TLS files are read with a bound: a FIFO or /dev/zero as --etcd-ca/--etcd-key is refused at once', () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'docsync-etcd-tls-')), 'ca.pem');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(() => new EtcdClient({ endpoints: ['http://127.0.0.1:1'], caFile: fifo })).toThrow(
      /^--etcd-ca .* is not a regular file$/,
    );
    expect(() => new EtcdClient({ endpoints: ['http://127.0.0.1:1'], keyFile: '/dev/zero' })).toThrow(
      EtcdError,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
