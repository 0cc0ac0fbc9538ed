import { wholeOf, WAIT, type ArrivingList, type Wait } from '../model/arriving.js';
import type { Renamable } from '../model/index.js';
import { duplicates, type DiffContext } from './context.js';
import { DraftSet } from './draft.js';

/**
 * Whether `pairedAsRead` gives `pairByIdentity`'s pairs for these entries: none pinned by id or
 * renamed (`previously`), no two of the same name. An entry's partner is then the one live item of
 * its name, whichever page it comes on, and a live item no entry names is left over.
 */
export function pairsByNameOnly<D extends Renamable>(
  desired: readonly D[],
  nameOf: (d: D) => string,
): boolean {
  const names = new Set<string>();
  for (const d of desired) {
    const name = nameOf(d);
    if (d.id !== undefined || (d.previously?.length ?? 0) > 0 || names.has(name)) return false;
    names.add(name);
  }
  return true;
}

/** `ctx` with drafts of its own: what else a pair's diff writes (its refs) goes into `ctx` at once. */
const ownDrafts = (ctx: DiffContext): DiffContext => ({ ...ctx, drafts: new DraftSet() });

/** A live item of an entry already diffed came on a later page: the diff ahead is done again in place. */
class PairedTooSoon extends Error {}

/**
 * An entry whose live item had not come at its turn: diffed with drafts of its own once it comes
 * (`ctx`), or in its place at the end if none came (while in `Paging.holes`); a duplicate has neither.
 */
type Hole<D> = { d: D; name: string; ctx?: DiffContext };

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
): Generator<void | Wait, L[], undefined> {
  const paging = new Paging(desired, list, nameOf);
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
    const name = nameOf(d);
    paging.index();
    let found = paging.byName.get(name);
    // Its item is likely on the next page while no later entry's has come: it waits for it.
    while (!found && !list.pagesDone && paging.furthest <= i) {
      flush();
      yield WAIT;
      paging.index();
      found = paging.byName.get(name);
    }
    // Two of its name so far: a duplicate whatever comes next, named once every page is read.
    if (found && found.length > 1) continue;
    if (!found && !list.pagesDone) {
      flush();
      const hole: Hole<D> = { d, name };
      paging.holes.set(name, hole);
      segments.push(hole);
      out = undefined;
      continue;
    }
    paging.diffed.add(name);
    const l = found?.[0];
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
  // Names are looked up again only when two live items shared one (issue 33: an entry a lookup).
  if (paging.twins)
    for (const d of desired) {
      const found = paging.byName.get(nameOf(d));
      if (found && found.length > 1) duplicates(ctx, what, nameOf(d), found);
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
    const found = paging.byName.get(hole.name)!;
    // A twin came with it: a duplicate, nothing diffed.
    if (found.length > 1) continue;
    paging.diffed.add(hole.name);
    const l = list.whole(found[0]!) ?? (yield* wholeOf(list, found[0]!));
    diff((hole.ctx = ownDrafts(ctx)), [[hole.d, l]]);
    if ((n += 1) % batch === 0) yield;
  }
}

/** The live items paged so far, by the name of the entry they pair with, or left over. */
class Paging<D, L> {
  /** The live items of each name an entry has, in the list's order. */
  readonly byName = new Map<string, L[]>();
  /** The live items of no entry's name, in the list's order. */
  readonly leftover: L[] = [];
  /** The names of the entries diffed with their live item (or none, the last page read). */
  readonly diffed = new Set<string>();
  /** The entries whose item had not come at their turn, by name; those whose item has since come. */
  readonly holes = new Map<string, Hole<D>>();
  readonly ready: Hole<D>[] = [];
  /** Whether two live items of one entry's name were paged (a duplicate, named at the end). */
  twins = false;
  /** The furthest place in the config of an entry whose item has come (-1: none yet). */
  furthest = -1;
  /** The place in the config of each entry, by name. */
  private readonly wanted = new Map<string, number>();
  private seen = 0;

  constructor(
    desired: readonly D[],
    private readonly list: ArrivingList<L>,
    private readonly nameOf: (x: D | L) => string,
  ) {
    desired.forEach((d, i) => this.wanted.set(nameOf(d), i));
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
      else if (this.diffed.has(name)) throw new PairedTooSoon(`a second live item named "${name}"`);
      else {
        if (at > this.furthest) this.furthest = at;
        const same = this.byName.get(name);
        if (same) {
          same.push(l);
          this.twins = true;
        } else this.byName.set(name, [l]);
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
