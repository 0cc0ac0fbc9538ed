/**
 * Arrays V8 keeps in one elements kind (issue 33, the CPU rows). `list.map(f)` is packed when the
 * interpreter runs it and holey once TurboFan inlines it into an optimized caller: code that reads
 * both (a site's live site spaces, its section slots) sees a second array map and is deoptimized
 * and compiled again. An array grown by `push` from `[]` is packed either way.
 */
export function mapPacked<T, U>(list: readonly T[], f: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < list.length; i += 1) out.push(f(list[i]!, i));
  return out;
}

/** A packed copy of `list`, an array made elsewhere (packed or holey) that hot code reads. */
export const packedCopy = <T>(list: readonly T[]): T[] => mapPacked(list, (item) => item);
