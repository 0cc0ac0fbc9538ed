import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue.js';
import type { Trigger } from './types.js';

/** A queue whose runs end only when the test says so. */
function gatedQueue() {
  const started: Trigger[] = [];
  const finishers: (() => void)[] = [];
  const queue = new RunQueue((trigger) => {
    started.push(trigger);
    return new Promise<void>((resolve) => finishers.push(resolve));
  });
  const finishRun = async () => {
    finishers.shift()?.();
    // Let the finished run's follow-up start.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, finishRun };
}

describe('RunQueue', () => {
  it.each<[string, Trigger[], Trigger]>([
    ['the last trigger wins', ['poll', 'webhook'], 'webhook'],
    ['a drift check wins over anything later', ['drift', 'poll', 'watch'], 'drift'],
    ['a drift check wins over anything earlier', ['poll', 'drift'], 'drift'],
  ])('runs one at a time; triggers during a run coalesce into one follow-up: %s', async (_, during, next) => {
    const { queue, started, finishRun } = gatedQueue();
    queue.trigger('startup');
    for (const t of during) queue.trigger(t);
    expect(started).toEqual(['startup']);
    await finishRun();
    expect(started).toEqual(['startup', next]);
    await finishRun();
    await queue.idle();
    expect(started).toEqual(['startup', next]);
  });

  it('once closed, ignores triggers and drops the follow-up; the run in flight finishes', async () => {
    const { queue, started, finishRun } = gatedQueue();
    queue.trigger('startup');
    queue.trigger('poll');
    queue.close();
    queue.trigger('drift');
    await finishRun();
    await queue.idle();
    expect(started).toEqual(['startup']);
  });
});
