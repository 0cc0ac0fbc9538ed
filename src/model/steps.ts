/**
 * One step of work done a step at a time (a generator that yields between steps): `more` while
 * steps remain, `done` at the end, `failed` when the step threw (the caller does the work again in
 * its place, where the same error comes at the same point; decision 43, sixth pass).
 */
export function advance(steps: Iterator<unknown>): 'more' | 'done' | 'failed' {
  try {
    return steps.next().done === true ? 'done' : 'more';
  } catch {
    return 'failed';
  }
}
