import { anyListKinds, collectionKind, listIn, lookups } from '../kinds/registry.js';
import type { EntryReference } from '../kinds/types.js';
import type { LiveOrganization } from '../reconcile/index.js';

/**
 * The names the live state proves exist, by target (what a reference of the config may name):
 * the names each live entry names (`liveReferences`: a site's spaces, a team's members), the names
 * each lookup lists (a site's title, a member's e-mail) and the organization's spaces. Lower case
 * where the target's names compare without case. Pure: read from the live state already read.
 */

/**
 * Whether the names of `target` compare without case (`lookupOf(target)?.caseless`), by target: a
 * map of booleans, where the hot paths asked lookups of three shapes (wrong map, issue 33).
 */
let caselessByTarget: Map<string, boolean> | undefined;

export const caselessOf = (target: string): boolean =>
  (caselessByTarget ??= new Map(
    lookups.map((l) => [l.lookup.target, l.lookup.caseless === true] as const).reverse(),
  )).get(target) === true;

/** A name of `target` as the proof compares it (lower case where its names compare without case). */
export const asCompared = (target: string, name: string): string =>
  caselessOf(target) ? name.toLowerCase() : name;

/** The targets a lookup knows, in the lookups' order (the order `provenByLive`'s map had them in). */
const lookupTargets = (): string[] => [...new Set(lookups.map((l) => l.lookup.target))];

/**
 * Every live name of the targets `wants` wants, each as compared (lower case where caseless), in
 * the order `provenByLive` added them: by list kind its entries' names, then its lookups' (a list
 * kind's own names), then the organization's spaces. A name comes as often as it is named.
 */
export function visitLiveNames(
  live: LiveOrganization,
  wants: (target: string) => boolean,
  visit: (target: string, name: string) => void,
): void {
  const names = (target: string, list: readonly string[]) => {
    if (!wants(target)) return;
    const caseless = caselessOf(target);
    for (const n of list) visit(target, caseless ? n.toLowerCase() : n);
  };
  for (const kind of anyListKinds) {
    const items = listIn(live, kind.key);
    if (!items) continue;
    const own = lookups.filter((l) => l.kind?.key === kind.key && l.lookup.names && wants(l.lookup.target));
    if (!kind.liveReferences && own.length === 0) continue;
    for (const item of items)
      for (const r of kind.liveReferences?.(item as never) ?? []) names(r.target, r.names);
    for (const { lookup } of own)
      for (const item of items) names(lookup.target, lookup.names!(item as never));
  }
  for (const r of collectionKind.liveReferences(live)) names(r.target, r.names);
}

/**
 * The references of `refs` that no live name proves, in their order: the names they ask about,
 * by target, then one pass over the live names of those targets only, each looked up, never
 * stored (the live state names tens of thousands, a config's unproven references a few).
 */
export function unprovenAmong<R extends Pick<EntryReference, 'target' | 'id'>>(
  live: LiveOrganization,
  refs: readonly R[],
): R[] {
  if (refs.length === 0) return [];
  // By target, by name as compared: whether a live name proves it.
  const asked = new Map<string, Map<string, boolean>>();
  for (const r of refs) {
    let names = asked.get(r.target);
    if (!names) asked.set(r.target, (names = new Map()));
    names.set(asCompared(r.target, r.id), false);
  }
  visitLiveNames(
    live,
    (target) => asked.has(target),
    (target, name) => {
      const names = asked.get(target)!;
      if (names.get(name) === false) names.set(name, true);
    },
  );
  return refs.filter((r) => asked.get(r.target)!.get(asCompared(r.target, r.id)) !== true);
}

/**
 * What the live state proves exists, by target, as `provenByLive` has always answered (a `Map` of
 * sets), each target's set made when it is first read: the plan reads a target's names only to
 * suggest a name for a reference nothing proves (src/pipeline/resolve.ts), which a config that
 * matches the live state never has, and the proof decides the rest without them (`LiveProof`).
 * Every target a lookup knows is a key, its set possibly empty; iterating makes every set.
 */
export class ProvenNames implements Map<string, Set<string>> {
  private readonly sets = new Map<string, Set<string>>();
  private readonly targets = lookupTargets();
  private whole = false;

  constructor(readonly live: LiveOrganization) {}

  get(target: string): Set<string> | undefined {
    if (!this.whole && !this.sets.has(target)) {
      if (this.targets.includes(target)) this.make((t) => t === target);
      else this.all();
    }
    return this.sets.get(target);
  }

  has(target: string): boolean {
    return this.targets.includes(target) || this.all().has(target);
  }

  get size(): number {
    return this.all().size;
  }

  entries(): MapIterator<[string, Set<string>]> {
    return this.all().entries();
  }

  keys(): MapIterator<string> {
    return this.all().keys();
  }

  values(): MapIterator<Set<string>> {
    return this.all().values();
  }

  [Symbol.iterator](): MapIterator<[string, Set<string>]> {
    return this.all()[Symbol.iterator]();
  }

  forEach(f: (value: Set<string>, key: string, map: Map<string, Set<string>>) => void, self?: unknown): void {
    this.all().forEach((value, key) => f.call(self, value, key, this));
  }

  set(target: string, names: Set<string>): this {
    this.all().set(target, names);
    return this;
  }

  delete(target: string): boolean {
    return this.all().delete(target);
  }

  clear(): void {
    this.all().clear();
  }

  get [Symbol.toStringTag](): string {
    return 'Map';
  }

  /** Every target's set: the lookups' targets first, in their order, as `provenByLive` had them. */
  private all(): Map<string, Set<string>> {
    if (this.whole) return this.sets;
    const made = new Set(this.sets.keys());
    this.make((t) => !made.has(t));
    const sets = new Map(this.sets);
    this.sets.clear();
    for (const t of this.targets) this.sets.set(t, sets.get(t)!);
    for (const [t, names] of sets) if (!this.sets.has(t)) this.sets.set(t, names);
    this.whole = true;
    return this.sets;
  }

  /** The sets of the targets `wants` wants (empty for a lookup's target that nothing names), in one pass. */
  private make(wants: (target: string) => boolean): void {
    for (const t of this.targets) if (wants(t)) this.sets.set(t, new Set());
    visitLiveNames(this.live, wants, (t, name) => {
      let names = this.sets.get(t);
      if (!names) this.sets.set(t, (names = new Set()));
      names.add(name);
    });
  }
}
