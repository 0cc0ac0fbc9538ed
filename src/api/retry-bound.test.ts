import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { HttpClient } from './http.js';

const open: { server: Server; sockets: Set<Socket>; client: HttpClient }[] = [];
afterEach(async () => {
  for (const { server, sockets, client } of open.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
    await client.close();
  }
});

/** What a raw server does with a connection (`n`: the how-manieth) and its sockets. */
type OnConnection = (socket: Socket, n: number) => void;
const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';

/** A TCP server answering as `onConnection` says, and a client of it (closed after each test). */
async function rawServer(
  onConnection: OnConnection,
  options: Partial<ConstructorParameters<typeof HttpClient>[0]>,
): Promise<{ client: HttpClient; connections: () => number }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket, (connections += 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new HttpClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: 'retry-token-0123456789',
    userAgent: 'test',
    backoffBaseMs: 10,
    ...options,
  });
  open.push({ server, sockets, client });
  return { client, connections: () => connections };
}

/** A server that accepts every connection and never answers, and a client with the default attempts. */
const silentServer = (timeoutMs: number, concurrency = 2) =>
  rawServer((socket) => socket.on('data', () => undefined), { concurrency, timeoutMs });

it('a silent server: each request gives up after 3 timed-out attempts, the rest of the command fails at once', async () => {
  const { client } = await silentServer(300);
  const started = Date.now();
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, (_, i) =>
      client.send({ method: 'GET', path: `/orgs/o${i}/teams`, route: '/orgs/{org}/teams', expect: [200] }),
    ),
  );
  const elapsed = Date.now() - started;
  const errors = results.map((r) => (r.status === 'rejected' ? (r.reason as ApiError) : null));
  expect(errors.every((e) => e instanceof ApiError && e.code === 'timeout')).toBe(true);
  // Two requests in flight (concurrency 2), three attempts of 300 ms each, then nothing more is tried
  // (before: each of the ten spent five attempts, about 8 s).
  expect(elapsed).toBeLessThan(4_000);
  const gaveUp = errors.filter((e) => !/not sent/.test(e!.message));
  expect(gaveUp.length).toBeGreaterThanOrEqual(1);
  expect(gaveUp[0]!.message).toMatch(
    /^GET \/orgs\/\{org\}\/teams: gave up after 3 attempts in \d+\.\d s: timeout \(no complete answer within 300 ms\)$/,
  );
  // The others (queued behind, or between two attempts) say why they were not sent.
  const notSent = errors.filter((e) => /not sent/.test(e!.message));
  expect(notSent.length).toBeGreaterThanOrEqual(8);
  // The eight queued behind the first two never reached the server.
  expect(notSent.filter((e) => !e!.sent)).toHaveLength(8);
  for (const e of notSent) {
    expect(e!.message).toMatch(
      /failed \(timeout\): not sent: GET \/orgs\/\{org\}\/teams: gave up after 3 attempts/,
    );
  }
});

it('attempts in flight together that time out together count once: the API is judged unreachable after failures one after the other', async () => {
  // A plan's first requests go together (FIRST_REQUESTS): four timeouts at once are one failure,
  // not the three in a row that judge the API unreachable (decision 43, "First requests together").
  const { client } = await silentServer(300, 4);
  const seen = { sent: 0 };
  const sent = client.budget.sent.bind(client.budget);
  client.budget.sent = () => ((seen.sent += 1), sent());
  const results = await Promise.allSettled(
    Array.from({ length: 4 }, (_, i) =>
      client.send({ method: 'GET', path: `/orgs/o${i}/teams`, route: '/orgs/{org}/teams', expect: [200] }),
    ),
  );
  const errors = results.map((r) => (r.status === 'rejected' ? (r.reason as ApiError) : null));
  expect(errors.every((e) => e instanceof ApiError && e.code === 'timeout')).toBe(true);
  // Three timeouts one after the other, not one: the first four attempts' retries were written.
  expect(seen.sent).toBeGreaterThanOrEqual(4 + 2);
  expect(errors.some((e) => /gave up after 3 attempts/.test(e!.message))).toBe(true);
});

it('after the first answer, reads in flight that time out together judge the API unreachable at once (a network drop)', async () => {
  // Only the first requests, before any answer, count once a round (the test above): a drop in
  // the middle of a read must not cost three rounds of timeouts and three times the requests.
  let silent = false;
  let unanswered = 0;
  const { client } = await rawServer(
    (socket) =>
      socket.on('data', () => {
        if (silent) unanswered += 1;
        else socket.write(OK);
      }),
    { concurrency: 8, timeoutMs: 300 },
  );
  const get = (i: number) => client.send({ method: 'GET', path: `/x${i}`, route: '/x', expect: [200] });
  await Promise.all(Array.from({ length: 8 }, (_, i) => get(i)));
  silent = true;
  const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => get(i)));
  expect(results.every((r) => r.status === 'rejected' && r.reason instanceof ApiError)).toBe(true);
  // Eight timed out together: judged at once, few retries (counted once a round: 24 requests).
  expect(unanswered).toBeGreaterThanOrEqual(8);
  expect(unanswered).toBeLessThan(16);
});

it('the client tries the API again once as long as giving up took has passed (a daemon keeps one client)', async () => {
  const { client, connections } = await silentServer(200);
  const get = { method: 'GET', path: '/orgs/o/teams', route: '/orgs/{org}/teams', expect: [200] } as const;
  await expect(client.send(get)).rejects.toThrow(/gave up after 3 attempts/);
  const before = connections();
  // At once: not sent (a command's later stages fail fast too).
  await expect(client.send(get)).rejects.toThrow(/not sent/);
  expect(connections()).toBe(before);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await expect(client.send(get)).rejects.toThrow(/gave up after 3 attempts/);
  expect(connections()).toBeGreaterThan(before);
});

it('connections the server closes after a request went out (stale kept-alive sockets) do not make the API "unreachable"', async () => {
  // The first eight connections answer one request each and are closed by the server at their
  // second (kept-alive sockets it has timed out); later connections answer every request. A client
  // reusing those eight sees eight failures in a row before any answer.
  const { client } = await rawServer(
    (socket, n) => {
      const stale = n <= 8;
      let requests = 0;
      socket.on('data', () => {
        requests += 1;
        if (stale && requests > 1) return socket.destroy();
        socket.write(OK);
      });
    },
    { concurrency: 8, backoffBaseMs: 5, backoffCapMs: 20 },
  );
  const get = () => client.send({ method: 'GET', path: '/x', route: '/x', expect: [200] });
  // Eight sockets open and kept alive; then forty requests, the first eight on those sockets.
  await Promise.all(Array.from({ length: 8 }, get));
  const results = await Promise.allSettled(Array.from({ length: 40 }, get));
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
});

/**
 * When a request's retries start counting, and what a request that cannot be sent gives back: a
 * server whose `/slow` answers after `slowMs`, whose `/reset` closes the connection unanswered and
 * whose other paths answer at once.
 */
async function serve(slowMs: number, opts: { concurrency: number; timeoutMs: number }): Promise<HttpClient> {
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
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
