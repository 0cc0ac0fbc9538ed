/**
 * Values derived from the emulator's state (an index of the teams by id, each user's number of
 * teams…), each remembered until the state may have changed
 * (docs/decisions/0040-emulator-throughput.md).
 *
 * The state changes through the emulator's own writes, each of which runs inside `write()`: while
 * it runs nothing is remembered (a handler may change what it has just looked up) and when it ends
 * everything is forgotten. A test may also change the state in place: `Emulator.state()` hands the
 * live object out, and from then on, until a reset replaces it, nothing is remembered at all.
 */
export class Memo {
  private generation = 0;
  private off = false;
  private writing = 0;
  private readonly entries = new WeakMap<object, Map<string, { generation: number; value: unknown }>>();

  /** Whether `of` remembers anything now (not during a write, not once the state was handed out). */
  get active(): boolean {
    return !this.off && this.writing === 0;
  }

  /** `build()`'s value for `owner` (an object of the state), built once while the state stays the same. */
  of<T>(owner: object, name: string, build: () => T): T {
    if (!this.active) return build();
    let byName = this.entries.get(owner);
    const entry = byName?.get(name);
    if (entry && entry.generation === this.generation) return entry.value as T;
    const value = build();
    if (!byName) this.entries.set(owner, (byName = new Map()));
    byName.set(name, { generation: this.generation, value });
    return value;
  }

  /** Run a write (anything that may change the state): nothing is remembered during it or kept after it. */
  write<T>(run: () => T): T {
    this.generation += 1;
    this.writing += 1;
    try {
      return run();
    } finally {
      this.writing -= 1;
      this.generation += 1;
    }
  }

  /** The state was handed out (`true`: it may change behind the emulator's back) or replaced by a fresh one. */
  handedOut(out: boolean): void {
    this.off = out;
    this.generation += 1;
  }
}

/** The first item of `items` with this key (as `find` would), through an index remembered by `memo`. */
export function findKeyed<T>(
  memo: Memo | undefined,
  items: readonly T[],
  name: string,
  key: (item: T) => string,
  wanted: string,
): T | undefined {
  // Without a memo, a map built for one lookup would cost more than the scan.
  if (!memo?.active) return items.find((item) => key(item) === wanted);
  const index = memo.of(items, name, () => {
    const map = new Map<string, T>();
    for (const item of items) if (!map.has(key(item))) map.set(key(item), item);
    return map;
  });
  return index.get(wanted);
}
