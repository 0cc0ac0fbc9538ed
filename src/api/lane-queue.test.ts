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

  it('a lane that appears later waits for the current round, then takes its turns', () => {
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
    expect([next(), next(), next(), next(), q.dequeue()]).toEqual(['a2', 'c1', 'a3', 'c2', undefined]);
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
});
