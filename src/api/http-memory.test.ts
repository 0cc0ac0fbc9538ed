import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { HttpClient } from './http.js';

// A full collection on demand, without starting the test process with `--expose-gc`.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const open: { server: Server; client: HttpClient }[] = [];
afterEach(async () => {
  for (const { server, client } of open.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await client.close();
  }
});

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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new HttpClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: 'memory-token-0123456789',
    userAgent: 'test',
    concurrency: 2,
  });
  open.push({ server, client });
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
