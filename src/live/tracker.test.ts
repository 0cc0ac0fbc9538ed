import { describe, expect, it } from 'vitest';
import { Tracker, type ReadProgress } from './tracker.js';

describe('Tracker', () => {
  it('counts each read when it starts and when it ends, and hands its value or its error on', async () => {
    const seen: ReadProgress[] = [];
    const tracker = new Tracker((p) => seen.push(p));
    const failure = new Error('boom');
    const read = tracker.track(Promise.resolve('a'));
    const failed = tracker.track(Promise.reject(failure));
    expect(seen).toEqual([
      { listsDone: 0, listsStarted: 1 },
      { listsDone: 0, listsStarted: 2 },
    ]);
    await expect(read).resolves.toBe('a');
    await expect(failed).rejects.toBe(failure);
    expect(seen.slice(2)).toEqual([
      { listsDone: 1, listsStarted: 2 },
      { listsDone: 2, listsStarted: 2 },
    ]);
    expect([tracker.started, tracker.done]).toEqual([2, 2]);
  });

  it('rejects a read whose progress callback throws, at its start or at its end', async () => {
    const broken = new Error('progress');
    const atStart = new Tracker(() => {
      throw broken;
    });
    await expect(atStart.track(Promise.resolve(1))).rejects.toBe(broken);
    let calls = 0;
    const atEnd = new Tracker(() => {
      calls += 1;
      if (calls === 2) throw broken;
    });
    await expect(atEnd.track(Promise.resolve(1))).rejects.toBe(broken);
    // Also when the read itself failed: the callback's error is the one seen.
    calls = 0;
    await expect(atEnd.track(Promise.reject(new Error('read')))).rejects.toBe(broken);
  });
});
