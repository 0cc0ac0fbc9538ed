import { WAIT } from './arriving.js';

/** How a step went (`advance`). */
export type StepResult = 'more' | 'waiting' | 'done' | 'failed';

/** A step of work done ahead, as its caller sees it: a failed one is done (its work is redone in place). */
export type AheadStep = Exclude<StepResult, 'failed'>;

/**
 * One step of work done a step at a time (a generator that yields between steps): `more` while
 * steps remain, `waiting` when it yielded `WAIT` (it needs more of a list than is read: run it
 * again once more is read), `done` at the end, `failed` when the step threw (the caller does the
 * work again in its place, where the same error comes at the same point; decision 43).
 */
export function advance(steps: Iterator<unknown>): StepResult {
  try {
    const r = steps.next();
    if (r.done === true) return 'done';
    return r.value === WAIT ? 'waiting' : 'more';
  } catch {
    return 'failed';
  }
}
