import PQueue from 'p-queue';
import { describe, expect, it } from 'vitest';
import { LaneQueue, type LaneOptions } from './lane-queue.js';

/** Queue tasks named `lane:n` on a paused queue of one at a time, then run them all: their order. */
async function order(tasks: { name: string; lane?: string; priority?: number }[]): Promise<string[]> {
  const ran: string[] = [];
  const queue = new PQueue<LaneQueue, LaneOptions>({
    concurrency: 1,
    queueClass: LaneQueue,
    autoStart: false,
  });
  for (const t of tasks)
    void queue.add(
      async () => {
        ran.push(t.name);
      },
      { ...(t.lane !== undefined ? { lane: t.lane } : {}), ...(t.priority ? { priority: t.priority } : {}) },
    );
  queue.start();
  await queue.onIdle();
  return ran;
}

const many = (lane: string, n: number, priority?: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `${lane}${i + 1}`, lane, ...(priority ? { priority } : {}) }));

describe('LaneQueue (the HTTP client queue)', () => {
  it('lets lanes take turns: reads of one route queued first do not hold back another route', async () => {
    expect(await order([...many('s', 4), ...many('m', 2), ...many('l', 1)])).toEqual([
      's1',
      'm1',
      'l1',
      's2',
      'm2',
      's3',
      's4',
    ]);
  });

  it('serves lanes in proportion to what each has waiting: a short lane spreads over a long one', async () => {
    // Round robin would run a1, b1, a2 first and leave b alone for the rest: heavy reads (a site's
    // sections) bunched at the start of the plan, light ones (a team's members) at its end.
    expect(await order([...many('a', 2), ...many('b', 6)])).toEqual([
      'a1',
      'b1',
      'b2',
      'b3',
      'a2',
      'b4',
      'b5',
      'b6',
    ]);
    const big = await order([...many('h', 100), ...many('l', 400)]);
    // Each quarter of the run holds about a quarter of the short lane.
    for (let q = 0; q < 4; q += 1)
      expect(big.slice(q * 125, (q + 1) * 125).filter((n) => n.startsWith('h'))).toHaveLength(25);
  });

  it('serves a lane of a larger share ahead of its proportion: it ends when the others are that far behind', () => {
    // 100 heavy reads of share 1.5 among 400 light ones: the heavy lane ends when the light one is
    // two thirds through (at 367 of 500), where lanes in plain proportion end together.
    const q = new LaneQueue();
    const lane = new Map<() => Promise<unknown>, string>();
    const add = (name: string, share?: number) => {
      const run = () => Promise.resolve(name);
      lane.set(run, name);
      q.enqueue(run, { lane: name, ...(share ? { share } : {}) });
    };
    for (let i = 0; i < 100; i += 1) add('h', 1.5);
    for (let i = 0; i < 400; i += 1) add('l');
    const ran: string[] = [];
    for (let run = q.dequeue(); run; run = q.dequeue()) ran.push(lane.get(run)!);
    const lastHeavy = ran.lastIndexOf('h');
    expect(lastHeavy).toBeGreaterThan(355);
    expect(lastHeavy).toBeLessThan(375);
    // Still spread: each fifth of its reads among the light ones, not bunched at the start.
    expect(ran.slice(0, 73).filter((n) => n === 'h').length).toBeLessThan(25);
  });

  it('keeps the order within a lane, and FIFO for tasks without a lane', async () => {
    expect(await order([{ name: 'w1' }, { name: 'w2' }, { name: 'w3' }])).toEqual(['w1', 'w2', 'w3']);
  });

  it('serves a higher priority first (a list’s next page), lanes taking turns within it', async () => {
    expect(await order([...many('s', 2), ...many('p', 2, 1), ...many('q', 1, 1)])).toEqual([
      'p1',
      'q1',
      'p2',
      's1',
      's2',
    ]);
  });

  it('a lane that appears later catches up with the lanes already under way', () => {
    const q = new LaneQueue();
    const names = new Map<() => Promise<unknown>, string>();
    const add = (name: string, lane: string) => {
      const run = () => Promise.resolve(name);
      names.set(run, name);
      q.enqueue(run, { lane });
    };
    add('a1', 'a');
    add('a2', 'a');
    add('a3', 'a');
    add('b1', 'b');
    const next = () => names.get(q.dequeue()!);
    expect([next(), next()]).toEqual(['a1', 'b1']);
    add('c1', 'c');
    add('c2', 'c');
    // c has done none of its work, a a third of its own: c first, then they alternate.
    expect([next(), next(), next(), next(), q.dequeue()]).toEqual(['c1', 'a2', 'c2', 'a3', undefined]);
    expect(q.size).toBe(0);
  });

  it('removes a queued task by id and changes its priority, keeping its lane', () => {
    const q = new LaneQueue();
    const run = (name: string) => Object.assign(() => Promise.resolve(name), { label: name });
    q.enqueue(run('x1'), { lane: 'x', id: 'x1' });
    q.enqueue(run('x2'), { lane: 'x', id: 'x2' });
    q.enqueue(run('y1'), { lane: 'y', id: 'y1' });
    q.setPriority('y1', 2);
    q.remove('x1');
    expect(q.size).toBe(2);
    expect(q.filter({ priority: 2 }).map((r) => (r as unknown as { label: string }).label)).toEqual(['y1']);
    expect(() => q.setPriority('nope', 1)).toThrow(ReferenceError);
    const labels = [q.dequeue(), q.dequeue()].map((r) => (r as unknown as { label: string }).label);
    expect(labels).toEqual(['y1', 'x2']);
  });

  it("keeps a lane's order when a task leaves from its middle or its end and more are queued after", () => {
    const q = new LaneQueue();
    const run = (name: string) => Object.assign(() => Promise.resolve(name), { label: name });
    for (const name of ['x1', 'x2', 'x3', 'x4']) q.enqueue(run(name), { lane: 'x', id: name });
    q.remove('x2');
    q.remove('x4');
    q.enqueue(run('x5'), { lane: 'x', id: 'x5' });
    expect(q.filter({ priority: 0 }).map((r) => (r as unknown as { label: string }).label)).toEqual([
      'x1',
      'x3',
      'x5',
    ]);
    const labels = [q.dequeue(), q.dequeue(), q.dequeue()].map(
      (r) => (r as unknown as { label: string }).label,
    );
    expect(labels).toEqual(['x1', 'x3', 'x5']);
    expect([q.size, q.dequeue()]).toEqual([0, undefined]);
  });
});
