/**
 * Arrays V8 keeps in one elements kind (issue 33, the CPU rows). `list.map(f)` is packed when the
 * interpreter runs it and holey once TurboFan inlines it into an optimized caller (as the API
 * answers' checked arrays are): code that reads both (a site's live site spaces, its section
 * slots) sees a second array map, and is deoptimized and compiled again. An array made at its
 * length and filled is holey either way, and as fast and small as `map`'s (one grown by `push` is
 * packed either way, but slower, and its spare room stays with the live model).
 */
export function mapHoley<T, U>(list: readonly T[], f: (item: T, index: number) => U): U[] {
  const out = new Array<U>(list.length);
  for (let i = 0; i < list.length; i += 1) out[i] = f(list[i]!, i);
  return out;
}

/** A holey copy of `list`, an array made elsewhere (packed or holey) that hot code reads. */
export function holeyCopy<T>(list: readonly T[]): T[] {
  // A loop of its own, not `mapHoley` with a closure made per call (a team's members, a site's sections).
  const out = new Array<T>(list.length);
  for (let i = 0; i < list.length; i += 1) out[i] = list[i]!;
  return out;
}

/**
 * An empty array whose elements kind holds any value from the start: a literal `[]` holds small
 * integers until its allocation site has learned otherwise (its first calls, before the function
 * has feedback), so an empty one read beside filled ones was a second map (wrong map, issue 33).
 */
export function emptyList<T>(): T[] {
  const list: T[] = [undefined as T];
  list.pop();
  return list;
}
