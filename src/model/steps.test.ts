import { describe, expect, it } from 'vitest';
import { WAIT } from './arriving.js';
import { advance } from './steps.js';

function* work(fail: boolean): Generator<void | typeof WAIT, void, undefined> {
  yield;
  yield WAIT;
  if (fail) throw new Error('broken');
}

describe('advance', () => {
  it.each([
    [false, ['more', 'waiting', 'done', 'done']],
    [true, ['more', 'waiting', 'failed']],
  ] as const)('a step at a time (throws: %s)', (fail, expected) => {
    const steps = work(fail);
    expect(expected.map(() => advance(steps))).toEqual(expected);
  });
});
