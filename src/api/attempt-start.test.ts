import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { HttpClient } from './http.js';

/**
 * When a request's retries start counting, and what a request that cannot be sent gives back: a
 * server whose `/slow` answers after `slowMs`, whose `/reset` closes the connection unanswered and
 * whose other paths answer at once.
 */
const open: { server: Server; sockets: Set<Socket>; client: HttpClient }[] = [];
afterEach(async () => {
  for (const { server, sockets, client } of open.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
    await client.close();
  }
});

async function serve(slowMs: number, opts: { concurrency: number; timeoutMs: number }): Promise<HttpClient> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/v1/reset')) return req.socket.destroy();
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (req.url?.startsWith('/v1/slow')) setTimeout(answer, slowMs);
    else answer();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new HttpClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    token: 'start-token-0123456789',
    userAgent: 'test',
    backoffBaseMs: 10,
    ...opts,
  });
  open.push({ server, sockets, client });
  return client;
}

const get = (client: HttpClient, path: string, query?: Record<string, string>) =>
  client.send({ method: 'GET', path, route: path, expect: [200], ...(query ? { query } : {}) });

it('a request that gives up counts its time from its first attempt, not from when it was queued', async () => {
  const client = await serve(700, { concurrency: 1, timeoutMs: 1_000 });
  // Three answers of 700 ms ahead of it in the one slot: it waits about 2 s before its first attempt.
  const ahead = [get(client, '/slow/1'), get(client, '/slow/2'), get(client, '/slow/3')];
  const failed = await get(client, '/reset').catch((error: unknown) => error);
  await Promise.all(ahead);
  expect(failed).toBeInstanceOf(ApiError);
  // Its attempts failed at once: the time it reports (and the pause of the requests after it, as
  // long as giving up took) is theirs, not the 2 s it waited in the queue.
  expect((failed as ApiError).message).toMatch(/^GET \/reset: gave up after \d+ attempts in 0\.\d s: /);
});

it('a query value that cannot be sent fails its request alone and gives its slot back', async () => {
  const client = await serve(0, { concurrency: 1, timeoutMs: 1_000 });
  // A lone surrogate cannot be percent-encoded (a page token of a broken answer, say).
  const failed = await get(client, '/teams', { page: '\uD800' }).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(URIError);
  // Before: the slot of the rate budget was never given back (the next request waited forever), or
  // the request counted as a network failure, retried, and made every later request fail unsent.
  await expect(get(client, '/teams')).resolves.toMatchObject({ status: 200 });
  await expect(get(client, '/teams', { page: 'p2' })).resolves.toMatchObject({ status: 200 });
});

it('a body that cannot be written as JSON fails its request alone and gives its slot back', async () => {
  const client = await serve(0, { concurrency: 1, timeoutMs: 1_000 });
  const failed = await client
    .send({ method: 'POST', path: '/teams', route: '/teams', expect: [200], body: { n: 1n } })
    .catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(TypeError);
  await expect(get(client, '/teams')).resolves.toMatchObject({ status: 200 });
});
