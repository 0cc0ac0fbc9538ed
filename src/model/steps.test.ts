import { describe, expect, it } from 'vitest';
import { advance } from './steps.js';

function* work(fail: boolean): Generator<void, void, undefined> {
  yield;
  if (fail) throw new Error('broken');
}

describe('advance', () => {
  it.each([
    [false, ['more', 'done', 'done']],
    [true, ['more', 'failed']],
  ] as const)('a step at a time (throws: %s)', (fail, expected) => {
    const steps = work(fail);
    expect(expected.map(() => advance(steps))).toEqual(expected);
  });
});
