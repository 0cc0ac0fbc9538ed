import {
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  lookups,
  valueIn,
} from '../kinds/registry.js';
import type { EntryReference, Lookup } from '../kinds/types.js';
import type { AnyListKind } from '../kinds/shapes.js';
import { didYouMean } from '../model/did-you-mean.js';
import { ArrivingList, itemsOf, WAIT, type Wait } from '../model/arriving.js';
import { advance, type AheadStep } from '../model/steps.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/index.js';

/**
 * Plan-time resolution (issue 27): every value of the config that names a live object is checked
 * against the live state the plan read, or what the same plan creates, so that a reference nothing
 * answers is a plan error, never a call that fails half-way through an apply. The kinds declare
 * their references and lookups (src/kinds/types.ts); this is the generic, pure part. The pipeline
 * reads what is needed (src/pipeline/resolve.ts) and passes it in as `Known`.
 */

/** One reference of the config; `path` is inside the normalized organization. */
export type ConfigReference = EntryReference;

/** The names each target answers to, as read: target → names (undefined: not read, nothing to judge). */
export type Known = Map<string, { names: string[] }>;

export type UnresolvedReference = ConfigReference & { message: string };

/**
 * The targets the organization's references name (what the live read's scope needs), and those
 * whose list must be read for the ids (`read`): without building each reference's located copy,
 * which a large config has one of per site space.
 */
export function referenceTargets(org: DesiredOrganization): { named: Set<string>; needed: Set<string> } {
  const named = new Set<string>();
  // A kind whose diff needs the ids of what it names (a grant's member by e-mail): that list too.
  const needed = new Set<string>();
  const add = (r: Pick<ConfigReference, 'target' | 'read'>) => {
    named.add(r.target);
    if (r.read) needed.add(r.target);
  };
  for (const kind of anyListKinds) {
    const targets = kind.referenceTargets ?? kind.references;
    if (!targets) continue;
    for (const entry of listIn(org, kind.key) ?? []) for (const r of targets(entry, org as never)) add(r);
  }
  for (const kind of anyObjectKinds) {
    const value = valueIn(org, kind.key);
    if (value === undefined || !kind.references) continue;
    for (const r of kind.references(value)) add(r);
  }
  for (const r of collectionKind.references(org)) add(r);
  for (const space of org.spaces ?? [])
    for (const facet of anySpaceFacets) {
      const value = valueIn(space, facet.key);
      if (value === undefined || !facet.references) continue;
      for (const r of facet.references(value, space.id, org as never)) add(r);
    }
  return { named, needed };
}

/**
 * Every reference of one organization, in config order; with `keep`, only those it keeps, each
 * located (its path from the organization) only when kept: a config of 100k site spaces names
 * 100k spaces that the live read almost all proves (decision 42).
 */
export function referencesOf(
  org: DesiredOrganization,
  keep: (target: string, id: string) => boolean = () => true,
  /**
   * By list kind, each entry's references kept ahead with a `keep` that kept at least what this
   * one keeps (`LiveProof`'s): filtered again, not walked again; an entry without is walked.
   */
  ahead?: ReadonlyMap<string, readonly (readonly ConfigReference[] | undefined)[]>,
): ConfigReference[] {
  const out: ConfigReference[] = [];
  for (const kind of anyListKinds) {
    if (!kind.references) continue;
    const kept = ahead?.get(kind.key);
    listIn(org, kind.key)?.forEach((entry, i) => {
      const mine = kept?.[i];
      if (mine === undefined) entryReferences(out, kind.key, kind.references!, entry, i, org, keep);
      else for (const r of mine) if (keep(r.target, r.id)) out.push(r);
    });
  }
  for (const kind of anyObjectKinds) {
    const value = valueIn(org, kind.key);
    if (value === undefined || !kind.references) continue;
    for (const r of kind.references(value))
      if (keep(r.target, r.id)) out.push({ ...r, path: [kind.key, ...r.path] });
  }
  for (const r of collectionKind.references(org)) if (keep(r.target, r.id)) out.push(r);
  org.spaces?.forEach((space, i) => {
    for (const facet of anySpaceFacets) {
      const value = valueIn(space, facet.key);
      if (value === undefined || !facet.references) continue;
      for (const r of facet.references(value, space.id, org as never))
        if (keep(r.target, r.id)) out.push({ ...r, path: ['spaces', i, facet.key, ...r.path] });
    }
  });
  return out;
}

/** The references of a list kind's entry (the `i`th of its list) that `keep` keeps, located. */
function entryReferences(
  out: ConfigReference[],
  key: string,
  references: NonNullable<AnyListKind['references']>,
  entry: unknown,
  i: number,
  org: DesiredOrganization,
  keep: (target: string, id: string) => boolean,
): void {
  // `.call`: TurboFan does not bet on one kind's function here, so the next kind's does not deoptimize it (issue 33).
  for (const r of references.call(undefined, entry as never, org as never, keep))
    if (keep(r.target, r.id)) out.push({ ...r, path: [key, i, ...r.path] });
}

/**
 * What the proof reads of a list kind, in one shape for every kind: the kinds' modules differ in
 * the optional members they set, and the proof's hot functions, which read several kinds, were
 * deoptimized at each new one (wrong map, issue 33).
 */
type ProofKind = {
  kind: AnyListKind;
  key: string;
  liveReferences: AnyListKind['liveReferences'];
  references: AnyListKind['references'];
  /** The names a live entry is known by, when the config's entries of the kind have references. */
  names: ((item: never) => string[]) | undefined;
};

/**
 * Every list kind's record, made with the proof: made as each list arrived, a later kind's values
 * generalized the records' field types and deoptimized the code reading them (issue 33).
 */
const proofKinds = (): Map<string, ProofKind> =>
  new Map(
    anyListKinds.map((kind) => [
      kind.key,
      {
        kind,
        key: kind.key,
        liveReferences: kind.liveReferences,
        references: kind.references,
        names: kind.references ? kind.lookup?.names : undefined,
      },
    ]),
  );

/** Whether a reference is not proven by `proven` (what is left to check). */
const unprovenBy =
  (proven: ReadonlyMap<string, Set<string>>) =>
  (target: string, id: string): boolean =>
    !proven.get(target)?.has(caselessOf(target) ? id.toLowerCase() : id);

/** What the live read already proves exists, by target (lower case where names compare without case). */
export function provenByLive(live: LiveOrganization): Map<string, Set<string>> {
  return new LiveProof().finish(live)!;
}

/**
 * `provenByLive`, a list at a time: each list kind's part (what its entries name, and the names a
 * lookup lists) is added as its list is read, in steps (`listArriving`, `step`: decision 43's
 * sixth pass), an entry once it is whole (its reads below done: the eighth pass), and `finish` adds
 * the rest once the whole live state is read. The sets hold the same names as `provenByLive`'s, in
 * another order where lists were added early: ask them what they hold only.
 */
export class LiveProof {
  private readonly proven = new Map<string, Set<string>>();
  private readonly lists = new Map<string, { list: ArrivingList; steps: Iterator<unknown> }>();
  private failed = false;
  /** Once `finish` runs, nothing more is kept ahead (it would be walked twice). */
  private finishing = true;
  /**
   * By list kind, by the config entry's index: its references not proven when it was walked
   * ahead (`referencesAhead`); an entry not walked is walked at the end.
   */
  private readonly kept = new Map<string, (ConfigReference[] | undefined)[]>();
  private readonly byName = new Map<string, Map<string, number[]>>();
  private readonly kinds = proofKinds();
  private readonly adders = new Map<string, (name: string) => void>();

  /**
   * With the desired organization, a list kind's references are also walked ahead as its live
   * list is proven, each entry once its live twin is (a site's references name the spaces its
   * live site spaces prove): little is left to walk after the last page (the twelfth pass).
   */
  constructor(private readonly org?: DesiredOrganization) {
    // Written twice at once: set first in `finish`, after the proof's code was optimized reading it
    // as a constant, it deoptimized that code (code dependencies, issue 33).
    this.finishing = false;
    // Each target's set and adder made before any entry: made by the first entry naming it, that
    // path had no feedback at the next kind's first entry and deoptimized the proof. An empty set
    // proves nothing.
    for (const { lookup } of lookups) this.adder(lookup.target);
  }

  /** A list kind's live list begins to be read: its part can be proven as it is (then `step` runs it). */
  listArriving(key: string, list: ArrivingList): boolean {
    if (this.lists.has(key)) return false;
    this.lists.set(key, { list, steps: this.prove(key, list) });
    return true;
  }

  /**
   * One step of `key`'s part: `more`, `waiting` (for more of the list), or `done` (also when it
   * failed: `finish` then leaves it to `provenByLive`).
   */
  step(key: string): AheadStep {
    const list = this.lists.get(key);
    if (list === undefined || this.failed) return 'done';
    const r = advance(list.steps);
    this.failed = r === 'failed';
    return r === 'failed' ? 'done' : r;
  }

  /**
   * What `live` proves; undefined when a list was added that is not the one `live` holds, or a
   * step failed (`provenByLive` then throws the same error where it is asked).
   */
  finish(live: LiveOrganization): Map<string, Set<string>> | undefined {
    this.finishing = true;
    for (const [key, { list }] of this.lists) {
      if (list.items === undefined || listIn(live, key as 'sites') !== list.items) return undefined;
      let r: ReturnType<LiveProof['step']>;
      do r = this.step(key);
      while (r === 'more');
      // Read whole, a list has nothing more to wait for.
      if (this.failed || r === 'waiting') return undefined;
    }
    for (const kind of anyListKinds) {
      const items = listIn(live, kind.key);
      if (!items || this.lists.has(kind.key)) continue;
      const steps = this.prove(kind.key, ArrivingList.read(items));
      while (steps.next().done !== true);
    }
    for (const { target, names } of collectionKind.liveReferences(live)) {
      const set = this.set(target);
      for (const n of names) set.add(n);
    }
    return this.proven;
  }

  /**
   * A list kind's part: what its entries name, each once whole, then the names its lookups list.
   * Resumed at every step of every list, it is kept small, the entries' loop and each entry's work
   * in functions of their own: what it reaches late (the rest, the lookups) deoptimizes it for
   * want of feedback, and it was the plan's largest compile, four times (issue 33).
   */
  private *prove(key: string, list: ArrivingList): Generator<void | Wait, void, undefined> {
    const kind = this.kinds.get(key);
    if (kind) this.prepare(kind);
    if (kind?.liveReferences) yield* this.proveEntries(kind, list);
    if (kind) yield* this.keepRest(kind);
    const items = yield* itemsOf(list);
    for (const { lookup, kind } of lookups) if (kind?.key === key) this.listed(lookup, items);
  }

  /**
   * The kind's containers, made before its entries are: made by the first entry, that path had
   * no feedback and deoptimized the optimized loop at the next kind's first entry (issue 33). A
   * `kept` entry left undefined is read as an absent one (walked at the end).
   */
  private prepare(kind: ProofKind): void {
    if (this.finishing || !this.org || !kind.references) return;
    // At its length, `undefined` in every slot: every kind's array in one elements kind (two
    // deoptimized `keepEntry`'s read of it: wrong map).
    const length = listIn(this.org, kind.key)?.length ?? 0;
    if (!this.kept.has(kind.key)) this.kept.set(kind.key, new Array(length).fill(undefined));
    if (kind.names) this.entriesByName(kind);
  }

  /** Each entry of `kind`'s list, once whole, as it arrives. */
  private *proveEntries(kind: ProofKind, list: ArrivingList): Generator<void | Wait, void, undefined> {
    for (let i = 0; ; i += 1) {
      // `pagesDone` asked at every entry, not only once caught up: feedback before the first wait.
      while (!list.pagesDone && i >= list.paged.length) yield WAIT;
      if (i >= list.paged.length) return;
      // Waited for here: no generator per entry (15,000 teams read whole). One ask, before and
      // after a wait: its feedback is there when an optimized loop first waits.
      const entry = list.paged[i];
      let item: unknown;
      while ((item = list.whole(entry)) === undefined) yield WAIT;
      this.proveEntry(kind, item);
      if (i % ENTRIES_PER_STEP === ENTRIES_PER_STEP - 1) yield;
    }
  }

  /** What one whole live entry names, and the config's entries named as it is (`keepPaired`). */
  private proveEntry(kind: ProofKind, item: unknown): void {
    // `.call`: not compiled for the first kind's function, so the second kind's (teams after sites)
    // does not deoptimize the proof (wrong call target, issue 33).
    for (const { target, names } of kind.liveReferences!.call(undefined, item as never)) {
      // `forEach` with the target's adder, not a loop: a loop's body (and a `caseless` branch in
      // it) had no feedback when the proof was optimized on entries naming nothing (teams without
      // members), and the first names deoptimized it (issue 33).
      names.forEach(this.adder(target));
    }
    this.keepPaired(kind, item);
  }

  /**
   * The references of the config's entries of `kind` named as the live entry just proven is (a
   * site by its title): those the proof does not prove so far. An entry's references mostly name
   * what its live twin names (a site's spaces), proven just before. The sets only grow, so this
   * keeps at least what `referencesToCheck` keeps at the end, which filters them again.
   */
  private keepPaired(kind: ProofKind, item: unknown): void {
    if (this.finishing || !this.org || !kind.names) return;
    const at = this.entriesByName(kind);
    // `.call`, as in `proveEntry`: one call site for every kind's function without a deopt.
    for (const name of kind.names.call(undefined, item as never))
      for (const i of at.get(name) ?? []) this.keepEntry(kind, i);
  }

  /** The config's entries of `kind` not kept as their live twin was proven, a few a step. */
  private *keepRest(kind: ProofKind): Generator<void, void, undefined> {
    const entries = this.org && kind.references ? listIn(this.org, kind.key) : undefined;
    for (let i = 0; entries && i < entries.length && !this.finishing; i += 1) {
      this.keepEntry(kind, i);
      if (i % ENTRIES_PER_STEP === ENTRIES_PER_STEP - 1) yield;
    }
  }

  private keepEntry(kind: ProofKind, i: number): void {
    // Made by `prepare`, before the kind's entries.
    const kept = this.kept.get(kind.key)!;
    if (kept[i] !== undefined) return;
    const out: ConfigReference[] = [];
    const entry = listIn(this.org!, kind.key)![i];
    entryReferences(out, kind.key, kind.references!, entry, i, this.org!, unprovenBy(this.proven));
    kept[i] = out;
  }

  /** The config's entries of `kind` by the names they create (`lookup.created`), built once. */
  private entriesByName({ key, kind }: ProofKind): Map<string, number[]> {
    // The key from the proof's record: the kinds' own objects differ in shape (wrong map, issue 33).
    let at = this.byName.get(key);
    if (at) return at;
    this.byName.set(key, (at = new Map()));
    const created = kind.lookup?.created;
    listIn(this.org!, key)?.forEach((entry, i) => {
      for (const name of created?.(entry as never) ?? []) {
        const same = at.get(name);
        if (same) same.push(i);
        else at.set(name, [i]);
      }
    });
    return at;
  }

  /**
   * The references kept ahead by list kind, for `referencesToCheck` of `org` against `proven`:
   * only when `proven` is what this proof finished with (its sets only grew since) and `org` the
   * organization it walked.
   */
  referencesAhead(
    org: DesiredOrganization,
    proven: ReadonlyMap<string, Set<string>>,
  ): ReadonlyMap<string, readonly (readonly ConfigReference[] | undefined)[]> | undefined {
    return org === this.org && proven === this.proven && !this.failed ? this.kept : undefined;
  }

  /** The objects a lookup lists, when the live read has that list. */
  private listed(lookup: Lookup, items: readonly unknown[]): void {
    if (!lookup.names) return;
    const set = this.set(lookup.target);
    // Read once: the lookups differ in shape, and `normal` reading them per name was deoptimized.
    const { names, caseless } = lookup;
    for (const item of items) for (const n of names(item as never)) set.add(caseless ? n.toLowerCase() : n);
  }

  /** What adds a name to `target`'s set (lower case where its names compare without case). */
  private adder(target: string): (name: string) => void {
    let add = this.adders.get(target);
    if (add) return add;
    const set = this.set(target);
    add = caselessOf(target) ? (n) => set.add(n.toLowerCase()) : (n) => set.add(n);
    this.adders.set(target, add);
    return add;
  }

  private set(target: string): Set<string> {
    let set = this.proven.get(target);
    if (!set) this.proven.set(target, (set = new Set<string>()));
    return set;
  }
}

/** Live entries proven between two yields of `LiveProof`'s steps. */
const ENTRIES_PER_STEP = 8;

/** The lookups by target (asked once per name of every live entry: a map, not a search). */
let lookupByTarget: Map<string, Lookup> | undefined;

export const lookupOf = (target: string): Lookup | undefined =>
  (lookupByTarget ??= new Map(lookups.map((l) => [l.lookup.target, l.lookup] as const).reverse())).get(
    target,
  );

const normal = (lookup: Lookup | undefined, name: string) => (lookup?.caseless ? name.toLowerCase() : name);

/**
 * Whether the names of `target` compare without case (`lookupOf(target)?.caseless`), by target: a
 * map of booleans, where the hot paths asked lookups of three shapes (wrong map, issue 33).
 */
let caselessByTarget: Map<string, boolean> | undefined;

const caselessOf = (target: string): boolean =>
  (caselessByTarget ??= new Map(
    lookups.map((l) => [l.lookup.target, l.lookup.caseless === true] as const).reverse(),
  )).get(target) === true;

/**
 * The organization's references to resolve against the API: those the live read does not already
 * prove. With the `LiveProof` that proved `proven`, a list kind's references it kept ahead are
 * only filtered again here.
 */
export function referencesToCheck(
  org: DesiredOrganization,
  live: LiveOrganization,
  proven = provenByLive(live),
  proof?: LiveProof,
): ConfigReference[] {
  return referencesOf(org, unprovenBy(proven), proof?.referencesAhead(org, proven));
}

/** The references that nothing in `known` answers, each with a message that names the way out. */
export function unresolvedReferences(
  org: string,
  refs: readonly ConfigReference[],
  known: Known,
): UnresolvedReference[] {
  const out: UnresolvedReference[] = [];
  for (const r of refs) {
    const lookup = lookupOf(r.target);
    const found = known.get(r.target);
    if (!lookup || !found) continue;
    if (found.names.some((n) => normal(lookup, n) === normal(lookup, r.id))) continue;
    const hint = didYouMean(r.id, found.names);
    const show = (name: string) => (lookup.quoted ? `"${name}"` : name);
    out.push({
      ...r,
      message: `${r.holder}: ${lookup.noun} ${show(r.id)} does not exist in ${org}${hint ? `; did you mean ${show(hint)}?` : ''}`,
    });
  }
  return out;
}
