import { wholeOf, WAIT, type ArrivingList, type Wait } from '../model/arriving.js';
import type { Renamable } from '../model/index.js';
import { duplicates, type DiffContext } from './context.js';
import { DraftSet } from './draft.js';

/**
 * Where `pairedAsRead` gives `pairByIdentity`'s pairs for these entries (none pinned by id or
 * renamed by `previously`, no two of the same name), each entry's place by its name, which
 * `pairedAsRead` then looks the live items up in (one map of the names, not a set to check them
 * and a map to pair them; issue 33); undefined where not. An entry's partner is then the one live
 * item of its name, whichever page it comes on, and a live item no entry names is left over.
 */
export function pairsByNameOnly<D extends Renamable>(
  desired: readonly D[],
  nameOf: (d: D) => string,
): Map<string, number> | undefined {
  const places = new Map<string, number>();
  for (let i = 0; i < desired.length; i += 1) {
    const d = desired[i]!;
    const name = nameOf(d);
    if (d.id !== undefined || (d.previously?.length ?? 0) > 0 || places.has(name)) return undefined;
    places.set(name, i);
  }
  return places;
}

/** `ctx` with drafts of its own: what else a pair's diff writes (its refs) goes into `ctx` at once. */
const ownDrafts = (ctx: DiffContext): DiffContext => ({ ...ctx, drafts: new DraftSet() });

/** A live item of an entry already diffed came on a later page: the diff ahead is done again in place. */
class PairedTooSoon extends Error {}

/**
 * An entry whose live item had not come at its turn: diffed with drafts of its own once it comes
 * (`ctx`), or in its place at the end if none came (while in `Paging.holes`); a duplicate has neither.
 */
type Hole<D> = { d: D; name: string; at: number; ctx?: DiffContext };

/**
 * A pair's diff, written into `ctx`: it may read nothing another pair's diff writes, and write
 * only drafts (kept in the config's order) and refs (by name: their order is never read).
 */
export type PairsDiff<D, L> = (ctx: DiffContext, pairs: readonly [D, L | undefined][]) => void;

/**
 * `pairByIdentity` over a list as its pages come (decision 43, eighth pass), for entries that pair
 * by name only (`pairsByNameOnly`): each entry is diffed (`diff`, `batch` entries a step, each live
 * item whole) as soon as the live item of its name is paged, so that once the last page is read
 * only its share is left. The drafts come in the config's order all the same: an entry whose item
 * has not come at its turn is a hole, and what follows it is diffed with drafts of their own,
 * added in order at the end (the hole's own once its item comes, or once every page is read and
 * none came). The pairs, the duplicates and what is left over (returned, in the list's order) are
 * `pairByIdentity`'s: a second live item of a name already diffed throws (the kind is then diffed
 * again in its place, where `pairByIdentity` names the duplicates): a duplicate on a later page
 * costs the work ahead, never the plan.
 */
export function* pairedAsRead<D, L extends { id: string }>(
  ctx: DiffContext,
  what: string,
  desired: readonly D[],
  list: ArrivingList<L>,
  nameOf: (x: D | L) => string,
  diff: PairsDiff<D, L>,
  batch: number,
  /** The entries' places by name (`pairsByNameOnly`). */
  places: ReadonlyMap<string, number>,
): Generator<void | Wait, L[], undefined> {
  const paging = new Paging(desired, list, nameOf, places);
  // Where the entries diffed at their turn go: `ctx` until the first hole, then drafts of their own.
  let out: DiffContext | undefined = ctx;
  const segments: (DiffContext | Hole<D>)[] = [];
  let pairs: [D, L | undefined][] = [];
  let since = 0;
  const flush = () => {
    if (pairs.length === 0) return;
    if (!out) segments.push((out = ownDrafts(ctx)));
    diff(out, pairs);
    pairs = [];
  };
  for (let i = 0; i < desired.length; i += 1) {
    const d = desired[i]!;
    paging.index();
    let l = paging.found[i];
    // Its item is likely on the next page while no later entry's has come: it waits for it.
    while (l === undefined && !list.pagesDone && paging.furthest <= i) {
      flush();
      yield WAIT;
      paging.index();
      l = paging.found[i];
    }
    // Two of its name so far: a duplicate whatever comes next, named once every page is read.
    if (paging.twins.size > 0 && paging.twins.has(i)) continue;
    if (l === undefined && !list.pagesDone) {
      flush();
      const name = nameOf(d);
      const hole: Hole<D> = { d, name, at: i };
      paging.holes.set(name, hole);
      segments.push(hole);
      out = undefined;
      continue;
    }
    paging.diffed[i] = 1;
    pairs.push([d, l === undefined ? undefined : (list.whole(l) ?? (yield* wholeOf(list, l)))]);
    if ((since += 1) >= batch) {
      flush();
      since = 0;
      yield;
    }
  }
  flush();
  // The holes, as their items come, then those whose item never came.
  for (;;) {
    const last = list.pagesDone;
    paging.index();
    yield* fillHoles(ctx, paging, list, diff, batch);
    if (last) break;
    if (!paging.behind() && !list.pagesDone) yield WAIT;
  }
  // In the config's order: a hole whose item never came is diffed here, without one (created).
  for (const segment of segments)
    if (!('d' in segment)) ctx.drafts.absorb(segment.drafts);
    else if (segment.ctx) ctx.drafts.absorb(segment.ctx.drafts);
    else if (paging.holes.has(segment.name)) diff(ctx, [[segment.d, undefined]]);
  // In the config's order, only when two live items shared a name (issue 33: an entry a lookup).
  if (paging.twins.size > 0)
    for (let i = 0; i < desired.length; i += 1) {
      const found = paging.twins.get(i);
      if (found) duplicates(ctx, what, nameOf(desired[i]!), found);
    }
  return paging.leftover;
}

/** The holes whose live item came, each diffed with drafts of its own (none if a twin came with it). */
function* fillHoles<D, L extends { id: string }>(
  ctx: DiffContext,
  paging: Paging<D, L>,
  list: ArrivingList<L>,
  diff: PairsDiff<D, L>,
  batch: number,
): Generator<void | Wait, void, undefined> {
  let n = 0;
  while (paging.ready.length > 0) {
    const hole = paging.ready.shift()!;
    // A twin came with it: a duplicate, nothing diffed.
    if (paging.twins.has(hole.at)) continue;
    paging.diffed[hole.at] = 1;
    const found = paging.found[hole.at]!;
    const l = list.whole(found) ?? (yield* wholeOf(list, found));
    diff((hole.ctx = ownDrafts(ctx)), [[hole.d, l]]);
    if ((n += 1) % batch === 0) yield;
  }
}

/**
 * The live items paged so far, by the place in the config of the entry whose name they have, or
 * left over. One lookup of a paged item's name, none an entry: the entries are asked by their place
 * (a map by name, a set of the names diffed and an array a name were each asked per team, issue 33).
 */
class Paging<D, L> {
  /** By the entry's place: the first live item of its name paged, if any. */
  readonly found: (L | undefined)[];
  /** By the entry's place: its name's live items, where two or more were paged (a duplicate, named at the end). */
  readonly twins = new Map<number, L[]>();
  /** The live items of no entry's name, in the list's order. */
  readonly leftover: L[] = [];
  /** By the entry's place: 1 once diffed with its live item (or none, the last page read). */
  readonly diffed: Uint8Array;
  /** The entries whose item had not come at their turn, by name; those whose item has since come. */
  readonly holes = new Map<string, Hole<D>>();
  readonly ready: Hole<D>[] = [];
  /** The furthest place in the config of an entry whose item has come (-1: none yet). */
  furthest = -1;
  private seen = 0;

  constructor(
    desired: readonly D[],
    private readonly list: ArrivingList<L>,
    private readonly nameOf: (x: D | L) => string,
    /** The place in the config of each entry, by name. */
    private readonly wanted: ReadonlyMap<string, number>,
  ) {
    this.found = new Array<L | undefined>(desired.length).fill(undefined);
    this.diffed = new Uint8Array(desired.length);
  }

  /** Whether items were paged since the last `index`. */
  behind(): boolean {
    return this.seen < this.list.paged.length;
  }

  /** The items paged since the last call. */
  index(): void {
    const paged = this.list.paged;
    for (; this.seen < paged.length; this.seen += 1) {
      const l = paged[this.seen]!;
      const name = this.nameOf(l);
      const at = this.wanted.get(name);
      if (at === undefined) this.leftover.push(l);
      else if (this.diffed[at] === 1) throw new PairedTooSoon(`a second live item named "${name}"`);
      else {
        if (at > this.furthest) this.furthest = at;
        const first = this.found[at];
        if (first === undefined) this.found[at] = l;
        else {
          const same = this.twins.get(at);
          if (same) same.push(l);
          else this.twins.set(at, [first, l]);
        }
        // No holes (an entry waits at its turn while its item is due): no lookup an item.
        const hole = this.holes.size > 0 ? this.holes.get(name) : undefined;
        if (hole) {
          this.holes.delete(name);
          this.ready.push(hole);
        }
      }
    }
  }
}
