import { anyListKinds, listIn } from '../kinds/registry.js';
import type { AnyListKind } from '../kinds/shapes.js';
import { ArrivingList, WAIT, type Wait } from '../model/arriving.js';
import { emptyList } from '../model/holey.js';
import { advance, type AheadStep } from '../model/steps.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/index.js';
import { asCompared, ProvenNames, unprovenAmong } from './live-names.js';
import { TwinNames } from './twin-names.js';
import { entryReferences, keepAll, provenByLive, referencesOf, type ConfigReference } from './references.js';

/**
 * What the proof reads of a list kind, in one shape for every kind: the kinds' modules differ in
 * the optional members they set, and the proof's hot functions, which read several kinds, were
 * deoptimized at each new one (wrong map, issue 33).
 */
type ProofKind = {
  key: string;
  liveReferences: AnyListKind['liveReferences'];
  references: AnyListKind['references'];
  /** The names a live entry is known by, when the config's entries of the kind have references. */
  names: ((item: never) => string[]) | undefined;
  /** The names a config entry is known by (those its live twin's `names` give). */
  created: ((entry: never) => string[]) | undefined;
  /** The targets a config entry's references name (none: it has none), without locating them. */
  targets: AnyListKind['referenceTargets'];
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
        key: kind.key,
        liveReferences: kind.liveReferences,
        references: kind.references,
        names: kind.references ? kind.lookup?.names : undefined,
        created: kind.references ? kind.lookup?.created : undefined,
        targets: kind.references ? kind.referenceTargets : undefined,
      },
    ]),
  );

/** Whether a reference is not proven by `proven` (what is left to check). */
const unprovenBy =
  (proven: ReadonlyMap<string, Set<string>>) =>
  (target: string, id: string): boolean =>
    !proven.get(target)?.has(asCompared(target, id));

/**
 * What is kept of an entry whose live twin proves all its references (most entries'): one array,
 * of the elements kind of those that keep some (`emptyList`; a frozen or literal `[]` has another
 * map, and the code reading both was deoptimized: issue 33).
 */
const NO_REFERENCES: readonly ConfigReference[] = emptyList();

/**
 * Which of the config's references the live read proves, found while the lists are read (in steps:
 * `listArriving`, `step`, decision 43's sixth pass), without collecting the live names (the
 * fourteenth pass of decision 42). With the desired organization, each config entry of a list kind
 * with references is walked as soon as its live twin (the entry of the same name, a site by its
 * title) is whole: its references that the twin itself names (a site's spaces, a team's members)
 * are proven, compared with the twin's names in turn (`TwinNames`); the rest are kept
 * (`referencesAhead`). Once a list is read, its entries without a twin are walked, all their
 * references kept. At the end (`referencesToCheck`) what was kept, and the references of what was
 * not walked, are judged against every live name of their targets, looked up, not stored
 * (`unprovenAmong`). A name a twin names is a live name, and the end looks at every live name, so
 * the references left are exactly those no live name proves. Without the organization there is
 * nothing to walk, and `finish` checks that the lists are the live state's.
 */
export class LiveProof {
  private proven: ProvenNames | undefined;
  private readonly lists = new Map<string, { list: ArrivingList; steps: Iterator<unknown> }>();
  private failed = false;
  /**
   * By list kind, by the config entry's index: its references its live twin did not prove (all
   * of them when it has no twin); an entry not walked (undefined) is walked at the end.
   */
  private readonly kept = new Map<string, (readonly ConfigReference[] | undefined)[]>();
  /** By list kind, the config's entries by the names they are known by: an index, or several. */
  private readonly byName = new Map<string, Map<string, number | number[]>>();
  private readonly kinds = proofKinds();
  /** The live twin of the entry being walked, and the question asked of it (one of each, reused). */
  private readonly twin = new TwinNames();
  private readonly notInTwin = (target: string, id: string): boolean => !this.twin.has(target, id);
  /** What an entry's walk keeps, copied only when it keeps something. */
  private readonly scratch = emptyList<ConfigReference>();

  constructor(private readonly org?: DesiredOrganization) {}

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
   * What `live` proves (`ProvenNames`, made when read); undefined when a list was added that is not
   * the one `live` holds, or a step failed (`provenByLive` then throws the same error where it is
   * asked). The lists that did not arrive are walked here.
   */
  finish(live: LiveOrganization): Map<string, Set<string>> | undefined {
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
    if (this.proven?.live !== live) this.proven = new ProvenNames(live);
    return this.proven;
  }

  /**
   * A list kind's part: its config entries, each walked once its live twin is whole, then those
   * without a twin. Resumed at every step of every list, it is kept small, the entries' loop and
   * each entry's work in functions of their own (issue 33).
   */
  private *prove(key: string, list: ArrivingList): Generator<void | Wait, void, undefined> {
    const kind = this.kinds.get(key);
    if (kind === undefined || !this.prepare(kind)) return;
    // No entry left with references (teams without members): no live entry to pair or wait for.
    if (kind.names && this.byName.get(kind.key)!.size > 0) yield* this.pairEntries(kind, list);
    yield* this.keepRest(kind);
  }

  /**
   * Whether the config has entries of `kind` to walk; if so, their containers, made before any
   * entry is walked: made by the first entry, that path had no feedback and deoptimized the
   * optimized loop at the next kind's first entry (issue 33).
   */
  private prepare(kind: ProofKind): boolean {
    const entries = this.org && kind.references ? listIn(this.org, kind.key) : undefined;
    if (!entries || entries.length === 0) return false;
    // At its length, `undefined` in every slot: every kind's array in one elements kind (two
    // deoptimized `keepEntry`'s read of it: wrong map).
    let kept = this.kept.get(kind.key);
    if (kept === undefined) {
      kept = new Array<readonly ConfigReference[] | undefined>(entries.length).fill(undefined);
      this.kept.set(kind.key, kept);
      if (kind.targets) withoutReferences(kind.targets, entries, this.org!, kept);
    }
    if (kind.names && !this.byName.has(kind.key))
      this.byName.set(kind.key, entriesByName(kind, entries, kept));
    return true;
  }

  /** Each live entry of `kind`'s list, once whole, as it arrives: its config twins walked. */
  private *pairEntries(kind: ProofKind, list: ArrivingList): Generator<void | Wait, void, undefined> {
    for (let i = 0; ; i += 1) {
      // `pagesDone` asked at every entry, not only once caught up: feedback before the first wait.
      while (!list.pagesDone && i >= list.paged.length) yield WAIT;
      if (i >= list.paged.length) return;
      // Waited for here: no generator per entry (15,000 teams read whole). One ask, before and
      // after a wait: its feedback is there when an optimized loop first waits.
      const entry = list.paged[i];
      let item: unknown;
      while ((item = list.whole(entry)) === undefined) yield WAIT;
      this.keepPaired(kind, item);
      if (i % ENTRIES_PER_STEP === ENTRIES_PER_STEP - 1) yield;
    }
  }

  /**
   * The config's entries of `kind` named as the live entry `item` is (a site by its title), each
   * walked against it: their references it does not name are kept. Its names (`liveReferences`)
   * are made only when one of them asks.
   */
  private keepPaired(kind: ProofKind, item: unknown): void {
    const byName = this.byName.get(kind.key)!;
    let asked = false;
    // `.call`: not compiled for the first kind's function, so the second kind's (teams after sites)
    // does not deoptimize the proof (wrong call target, issue 33).
    for (const name of kind.names!.call(undefined, item as never)) {
      const at = byName.get(name);
      if (at === undefined) continue;
      if (!asked) this.twin.reset(item, kind.liveReferences);
      asked = true;
      if (typeof at === 'number') this.keepEntry(kind, at, this.notInTwin);
      else for (const i of at) this.keepEntry(kind, i, this.notInTwin);
    }
  }

  /** The config's entries of `kind` without a twin, a few a step: every reference kept. */
  private *keepRest(kind: ProofKind): Generator<void, void, undefined> {
    const kept = this.kept.get(kind.key)!;
    for (let i = 0, walked = 0; i < kept.length; i += 1) {
      if (kept[i] !== undefined) continue;
      this.keepEntry(kind, i, keepAll);
      walked += 1;
      if (walked % ENTRIES_PER_STEP === 0) yield;
    }
  }

  /** The `i`th config entry of `kind` walked, once: the references `keep` keeps, located. */
  private keepEntry(kind: ProofKind, i: number, keep: (target: string, id: string) => boolean): void {
    // Made by `prepare`, before the kind's entries.
    const kept = this.kept.get(kind.key)!;
    if (kept[i] !== undefined) return;
    const out = this.scratch;
    const entry = listIn(this.org!, kind.key)![i];
    entryReferences(out, kind.key, kind.references!, entry, i, this.org!, keep);
    kept[i] = out.length === 0 ? NO_REFERENCES : out.splice(0);
  }

  /**
   * The references kept ahead by list kind, for `referencesToCheck` of `org` against `proven`:
   * only when `proven` is what this proof finished with and `org` the organization it walked.
   */
  referencesAhead(
    org: DesiredOrganization,
    proven: ReadonlyMap<string, Set<string>>,
  ): ReadonlyMap<string, readonly (readonly ConfigReference[] | undefined)[]> | undefined {
    return org === this.org && proven === this.proven && !this.failed ? this.kept : undefined;
  }
}

/**
 * The entries whose references name no target (`referenceTargets`, which names exactly the targets
 * of `references`: src/plan/reference-targets.test.ts) are walked at once, while the first
 * requests are on their way: they keep nothing, and are neither paired with a live twin nor waited
 * for (a config's 14,000 teams without members, each looked up as its live team came, issue 33).
 */
function withoutReferences(
  targets: NonNullable<ProofKind['targets']>,
  entries: readonly unknown[],
  org: DesiredOrganization,
  kept: (readonly ConfigReference[] | undefined)[],
): void {
  for (let i = 0; i < entries.length; i += 1)
    if (targets.call(undefined, entries[i] as never, org as never).length === 0) kept[i] = NO_REFERENCES;
}

/** The config's entries of `kind` not walked yet, by the names they are known by (`lookup.created`). */
function entriesByName(
  kind: ProofKind,
  entries: readonly unknown[],
  kept: readonly (readonly ConfigReference[] | undefined)[],
): Map<string, number | number[]> {
  const at = new Map<string, number | number[]>();
  entries.forEach((entry, i) => {
    if (kept[i] !== undefined) return;
    for (const name of kind.created?.call(undefined, entry as never) ?? []) {
      const same = at.get(name);
      if (same === undefined) at.set(name, i);
      else if (typeof same === 'number') at.set(name, [same, i]);
      else same.push(i);
    }
  });
  return at;
}

/** Live entries proven between two yields of `LiveProof`'s steps. */
const ENTRIES_PER_STEP = 8;

/**
 * The organization's references to resolve against the API: those the live read does not already
 * prove. With the `LiveProof` that proved `proven`, a list kind's references it kept ahead (those
 * their twins did not prove) and the rest of the organization's are judged against the live names
 * of their targets (`unprovenAmong`), without `proven`'s sets.
 */
export function referencesToCheck(
  org: DesiredOrganization,
  live: LiveOrganization,
  proven = provenByLive(live),
  proof?: LiveProof,
): ConfigReference[] {
  const ahead = proof?.referencesAhead(org, proven);
  if (ahead) return unprovenAmong(live, referencesOf(org, keepAll, ahead));
  return referencesOf(org, unprovenBy(proven));
}
