import diagnostics from 'node:diagnostics_channel';
import { createServer, type ServerResponse } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { until } from '../../test/helpers/cli.js';
import { clientOf } from '../../test/helpers/http-client.js';

describe('a chained page first', () => {
  it('handles the answer of a list’s next page before answers of lower priority that came with it', async () => {
    // The server holds every request until it has all of them, then answers them at once: the
    // client finds them all in one turn of its event loop, the next page's (sent last) among them.
    const READS = 12;
    const { http, hold, running } = await heldTogether(READS + 1, READS + 1);
    const handled: string[] = [];
    const read = (path: string, priority?: number) =>
      http.send({ method: 'GET', path, route: path, expect: [200], ...(priority ? { priority } : {}) }, () =>
        handled.push(path),
      );
    hold();
    const reads = Array.from({ length: READS }, () => read('/below'));
    // Once the reads below are written: the list's next page, the chain every later read waits on.
    await running(READS);
    const page = read('/page', 1);
    await Promise.all([...reads, page]);
    // Before, the answers were handled in the order their sockets were read: the page's last or
    // near it. Now an answer of lower priority waits a turn of the event loop while a chained page
    // is under way, and the page's is handled at once.
    expect(handled.indexOf('/page')).toBe(0);
    expect(handled).toHaveLength(READS + 1);
  });

  it('writes a chained page while the reads running fill the concurrency, not after one of them ends', async () => {
    // The server answers the first request, then holds every other one until the test lets them go.
    const held: ServerResponse[] = [];
    const seen: string[] = [];
    const http = await clientOf(
      createServer((req, res) => {
        seen.push(req.url!);
        if (seen.length === 1) return res.end('{}');
        held.push(res);
      }),
      // A concurrency that may grow (up to 8), which the server's answers (no rate limit) keep at 2.
      { token: 'chain-first-token-0123456789', concurrency: 2, maxConcurrency: 8 },
    );
    const read = (path: string, priority?: number) =>
      http.send({ method: 'GET', path, route: path, expect: [200], ...(priority ? { priority } : {}) });
    await read('/probe');
    const reads = Array.from({ length: 6 }, (_, i) => read(`/below/${i}`));
    await until(() => seen.length === 3, 15_000, 5);
    const pages = [read('/page/1', 1), read('/page/2', 1)];
    // Both pages are written while the two reads running are held and four more wait; a plain read is not.
    await until(() => seen.length === 5, 15_000, 5);
    expect(seen.slice(3).sort()).toEqual(['/v1/page/1', '/v1/page/2']);
    expect(held).toHaveLength(4);
    for (const res of held.splice(0)) res.end('{}');
    const rest = until(
      () => {
        for (const res of held.splice(0)) res.end('{}');
        return seen.length === 9;
      },
      15_000,
      5,
    );
    await Promise.all([...reads, ...pages, rest]);
  });

  it('asks the pacer again when a chained page is queued while it sleeps for a slot', async () => {
    const seen: string[] = [];
    const http = await clientOf(
      createServer((req, res) => {
        seen.push(req.url!);
        res.end('{}');
      }),
      { token: 'chain-first-token-0123456789' },
    );
    const read = (path: string, priority?: number) =>
      http.send({ method: 'GET', path, route: path, expect: [200], ...(priority ? { priority } : {}) });
    await read('/probe');
    // The pacer's first answer a minute's wait (as its poll while the first answer is awaited, which
    // that answer makes out of date), then its own.
    let asked = 0;
    const acquire = http.budget.acquire.bind(http.budget);
    http.budget.acquire = (waiting?: number) => (++asked === 1 ? 60_000 : acquire(waiting));
    const below = read('/below');
    await until(() => asked === 1, 15_000, 5);
    // The page goes now, first, and the read below with it: before, both slept the minute out.
    await Promise.all([read('/page/1', 1), below]);
    expect(seen).toEqual(['/v1/probe', '/v1/page/1', '/v1/below']);
  });

  it('writes the page a chained answer asks for before it handles the answers of lower priority that came with it', async () => {
    // As in the first test, then the page's answer asks for the next page (as `PageWalk` does).
    const READS = 12;
    const { http, hold, running } = await heldTogether(READS + 1, READS + 2);
    const events: string[] = [];
    const written = (m: unknown) =>
      events.push(`written ${(m as { request: { path: string } }).request.path}`);
    diagnostics.subscribe('undici:client:sendHeaders', written);
    onTestFinished(() => {
      diagnostics.unsubscribe('undici:client:sendHeaders', written);
    });
    let next: Promise<unknown> | undefined;
    const read = (path: string, priority?: number) =>
      http.send(
        { method: 'GET', path, route: path, expect: [200], ...(priority ? { priority } : {}) },
        () => {
          events.push(`handled ${path}`);
          if (path === '/page/1') next = read('/page/2', 1);
        },
      );
    hold();
    const reads = Array.from({ length: READS }, () => read('/below'));
    await running(READS);
    events.length = 0;
    await Promise.all([...reads, read('/page/1', 1)]);
    await next;
    // Before, one answer below was handled (in the turn its deferral ended) before the next page was written.
    const after = events.slice(events.indexOf('handled /page/1') + 1);
    expect(after.filter((e) => e.startsWith('handled') || e.includes('/page/2'))[0]).toBe(
      'written /v1/page/2',
    );
  });
});

describe('the time paused for the rate limit', () => {
  it('is what the pacer slept, once, however many chained pages wake it during a 429’s pause', async () => {
    let n = 0;
    let paused = 0;
    const http = await clientOf(
      createServer((_req, res) => {
        n += 1;
        if (n === 2) {
          res.writeHead(429, { 'retry-after': '1' });
          return res.end('{}');
        }
        res.end('{}');
      }),
      { token: 'paused-metric-token-0123456789', observer: { paused: (ms) => (paused += ms) } },
    );
    const read = (path: string, priority?: number) =>
      http.send({ method: 'GET', path, route: path, expect: [200], ...(priority ? { priority } : {}) });
    await read('/probe');
    const t0 = Date.now();
    const first = read('/limited');
    // Chained pages queued during the pause: each wakes the pacer, which asks the budget again.
    const others: Promise<unknown>[] = [];
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      others.push(read(`/page/${i}`, 1));
    }
    await Promise.all([first, ...others]);
    const elapsed = Date.now() - t0;
    // Slept once, in one turn at a time: never more than the time that passed (it was about 1 s).
    expect(paused).toBeGreaterThan(500);
    expect(paused).toBeLessThanOrEqual(elapsed);
  });
});

/**
 * A client of a server that answers at once until `hold()`, then holds requests until it has
 * `count` of them and answers them all together (the client finds them in one turn of its event
 * loop). The first answer has ended the client's probing (only its first requests until an answer
 * comes). `running(n)`: once `n` requests are under way, and written.
 */
async function heldTogether(count: number, concurrency: number) {
  const held: ServerResponse[] = [];
  const body = JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ id: `x${i}` })) });
  const answer = (r: ServerResponse) => {
    r.writeHead(200, { 'content-type': 'application/json' });
    r.end(body);
  };
  let holding = false;
  const http = await clientOf(
    createServer((_req, res) => {
      if (!holding) return answer(res);
      held.push(res);
      if (held.length === count) {
        holding = false;
        held.splice(0).forEach(answer);
      }
    }),
    { token: 'chain-first-token-0123456789', concurrency },
  );
  await http.send({ method: 'GET', path: '/probe', route: '/probe', expect: [200] });
  const running = async (n: number) => {
    while (http.pending > 0 && (http as unknown as { running: number }).running < n)
      await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { http, hold: () => void (holding = true), running };
}
