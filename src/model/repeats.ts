/** A list entry's key to compare (undefined: the entry has none and repeats nothing). */
export type KeyOf<T> = (entry: T) => string | undefined;

/** Lists up to this long are compared entry by entry (no map made): a section's few site spaces. */
const SHORT_LIST = 16;

/**
 * The entries whose key an earlier entry of `list` has, each as `[first, i]` (the earliest entry
 * with that key, the repeating one), in list order; undefined when none repeats. A short list makes
 * nothing at all: checked for every section of a large config (16,600 of them), it stays
 * allocation-free unless a key repeats; a long one (a site root's thousands) goes through a map.
 */
export function repeatsIn<T>(list: readonly T[], keyOf: KeyOf<T>): [number, number][] | undefined {
  let out: [number, number][] | undefined;
  if (list.length <= SHORT_LIST) {
    for (let i = 1; i < list.length; i += 1) {
      const key = keyOf(list[i]!);
      if (key === undefined) continue;
      for (let j = 0; j < i; j += 1)
        if (keyOf(list[j]!) === key) {
          (out ??= []).push([j, i]);
          break;
        }
    }
    return out;
  }
  const firstOf = new Map<string, number>();
  for (let i = 0; i < list.length; i += 1) {
    const key = keyOf(list[i]!);
    if (key === undefined) continue;
    const first = firstOf.get(key);
    if (first === undefined) firstOf.set(key, i);
    else (out ??= []).push([first, i]);
  }
  return out;
}
