import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EtcdClient, EtcdError, prefixEnd } from './etcd-client.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('prefixEnd', () => {
  it('is the prefix with its last byte incremented', () => {
    expect(prefixEnd('/docsync/')).toBe(b64('/docsync0'));
    expect(prefixEnd('a')).toBe(b64('b'));
  });
  it('works on the UTF-8 bytes; an empty prefix ranges over the whole keyspace', () => {
    expect(Buffer.from(prefixEnd('ÿ'), 'base64')).toEqual(Buffer.from([0xc3, 0xc0]));
    expect(prefixEnd('')).toBe(Buffer.from([0]).toString('base64'));
  });
});

describe('EtcdClient over the JSON gateway', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });
  const serve = async (answer: (path: string, body: any) => [number, unknown]) => {
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        const [status, body] = answer(req.url ?? '', JSON.parse(text));
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('fails over to the next endpoint when one is unreachable', async () => {
    const live = await serve((path) => [200, path === '/v3/lease/grant' ? { ID: '42', TTL: '2' } : {}]);
    const dead = await serve(() => [200, {}]);
    await new Promise((r) => servers.pop()!.close(r));
    const client = new EtcdClient({ endpoints: [dead, live], requestTimeoutMs: 2000 });
    expect(await client.grant(2)).toBe('42');
    await client.close();
  });

  it('reads a missing TTL as an expired lease, and an error answer as an EtcdError', async () => {
    const url = await serve((path) =>
      path === '/v3/lease/keepalive'
        ? [200, { result: { ID: '42' } }]
        : [404, { error: 'etcdserver: requested lease not found', code: 5 }],
    );
    const client = new EtcdClient({ endpoints: [url] });
    expect(await client.keepAlive('42')).toBe(0);
    await expect(client.range('/x/')).rejects.toBeInstanceOf(EtcdError);
    await client.revoke('42'); // "lease not found" is what a revoke wants
    await client.close();
  });

  it('creates only if absent: the transaction compares the creation revision with 0', async () => {
    let seen: any;
    const url = await serve((_path, body) => {
      seen = body;
      return [200, { header: { revision: '7' }, succeeded: true }];
    });
    const client = new EtcdClient({ endpoints: [url] });
    expect(await client.create('/docsync/owners/org_a', 'r1', '42')).toEqual({
      created: true,
      revision: '7',
    });
    expect(seen.compare).toEqual([
      { key: b64('/docsync/owners/org_a'), target: 'CREATE', result: 'EQUAL', create_revision: '0' },
    ]);
    expect(seen.success[0].request_put).toEqual({
      key: b64('/docsync/owners/org_a'),
      value: b64('r1'),
      lease: '42',
    });
    await client.close();
  });
});
