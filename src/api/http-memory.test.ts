import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpClient } from './http.js';
import { listAll } from './paginate.js';
import { clientOf as serverClient } from '../../test/helpers/http-client.js';

// A full collection on demand, without starting the test process with `--expose-gc`.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

it('an answer the caller has dropped is not kept by the queue while later requests wait (decision 42)', async () => {
  // Requests after the first 60 are held by the server until the test has looked.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let served = 0;
  const server = createServer((_req, res) => {
    served += 1;
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: `item_${i}` })) }));
    };
    if (served <= 60) answer();
    else void held.then(answer);
  });
  const client = await clientOf(server);
  const answers: WeakRef<object>[] = [];
  let done = 0;
  const all = Array.from({ length: 80 }, () =>
    client.send({ method: 'GET', path: '/x', route: '/x', expect: [200] }).then((res) => {
      // The caller keeps nothing of the answer.
      answers.push(new WeakRef(res.body as object));
      done += 1;
    }),
  );
  while (done < 58) await tick();
  await tick();
  gc();
  await tick();
  const kept = answers.filter((a) => a.deref() !== undefined).length;
  release();
  await Promise.all(all);
  expect(done).toBe(80);
  // The queue still holds 20 requests; the answers already handed over are garbage.
  expect(answers.length).toBeGreaterThanOrEqual(58);
  expect(kept).toBeLessThanOrEqual(2);
});

/** A client of `server` with the memory tests' settings. */
const clientOf = (server: Server) =>
  serverClient(server, { token: 'memory-token-0123456789', concurrency: 2 });

/** A server whose answers are each a page of 50 items, on an ephemeral port, and a client of it. */
async function pagesServer(): Promise<HttpClient> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: `item_${i}`, extra: { n: i } })) }),
    );
  });
  return clientOf(server);
}

it('a shaped call settles with its shape only: the answer as sent is garbage while its promise is kept (decision 42)', async () => {
  const client = await pagesServer();
  const answers: WeakRef<object>[] = [];
  // The callers' promises stay reachable, as a plan's queued reads are (in the old generation).
  const kept = await Promise.all(
    Array.from({ length: 20 }, () => {
      const call = client.send({ method: 'GET', path: '/x', route: '/x', expect: [200] }, (res) => {
        answers.push(new WeakRef(res.body as object));
        return (res.body as { items: unknown[] }).items.length;
      });
      return call.then((n) => ({ call, n }));
    }),
  );
  gc();
  await tick();
  expect(kept.map((k) => k.n)).toEqual(Array(20).fill(50));
  expect(answers).toHaveLength(20);
  // At most the last answers, which the HTTP machinery lets go of at its next request.
  expect(answers.filter((a) => a.deref() !== undefined).length).toBeLessThanOrEqual(2);
});

it("a list read with a live form keeps each page's items in that form only (decision 42)", async () => {
  const client = await pagesServer();
  const raw: WeakRef<object>[] = [];
  const item = z.looseObject({ id: z.string() });
  const live = (x: { id: string }) => {
    raw.push(new WeakRef(x));
    return { id: x.id };
  };
  const lists = await Promise.all(
    Array.from({ length: 10 }, () => listAll(client, '/x', '/x', item, {}, live)),
  );
  gc();
  await tick();
  expect(lists.map((l) => l.length)).toEqual(Array(10).fill(50));
  expect(lists[0]![49]).toEqual({ id: 'item_49' });
  expect(raw).toHaveLength(500);
  // At most the last pages' items (as above); the other 400 or more are garbage.
  expect(raw.filter((a) => a.deref() !== undefined).length).toBeLessThanOrEqual(100);
});
