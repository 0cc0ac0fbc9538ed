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

/**
 * Reports each repeat of `repeats` (`repeatsIn`'s) to a scope's `unique` check: a repeated key's
 * first place is handed to it once, then each repetition, which it reports against that place.
 */
export function reportRepeats(
  unique: (key: string, place: (string | number)[]) => void,
  repeats: [number, number][],
  keyAt: (i: number) => string,
  placeAt: (i: number) => (string | number)[],
): void {
  const handed = new Set<number>();
  for (const [first, i] of repeats) {
    if (!handed.has(first)) unique(keyAt(first), placeAt(first));
    handed.add(first);
    unique(keyAt(i), placeAt(i));
  }
}

/**
 * The identities met so far in one scope of a check (a site's spaces): `count` answers 0 for a new
 * one, 1 at its second time, 2 after. The scope's `unique` check, which keeps a place (a path and an object)
 * per identity, is handed an identity only once it repeats (its first place, found again, then each
 * repetition): it reports the same, where a place per section and site space made 14 MB of the
 * 68 MB a load of 66,400 site spaces allocated (the sets make 4 MB; issue 33).
 */
export class Seen {
  private readonly once = new Set<string>();
  private twice: Set<string> | undefined;
  count(identity: string): 0 | 1 | 2 {
    const size = this.once.size;
    // One lookup: the set grows when the identity is new.
    if (this.once.add(identity).size !== size) return 0;
    if ((this.twice ??= new Set()).has(identity)) return 2;
    this.twice.add(identity);
    return 1;
  }
}
