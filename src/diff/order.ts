import type { OpShape, Position, Ref } from '../model/index.js';
import type { KindDrafts } from './builder.js';

/**
 * Reordering with the fewest moves. Keep a longest increasing subsequence (LIS) of the current
 * order and move only the other items, right to left, each before its desired successor (or,
 * for the last item, after the item currently last). Running the moves in the returned order
 * turns `current` into the desired order.
 */
export type Move<T> = { item: T; before?: T; after?: T };

/** Indices (into `seq`) of one longest strictly increasing subsequence. O(n log n). */
export function longestIncreasingSubsequence(seq: readonly number[]): number[] {
  const tails: number[] = [];
  const prev = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i += 1) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out: number[] = [];
  let k = tails.length > 0 ? tails[tails.length - 1]! : -1;
  while (k !== -1) {
    out.push(k);
    k = prev[k]!;
  }
  return out.reverse();
}

/**
 * `desired`: the items in their desired order. `current`: the same items (and possibly others,
 * which are left where they are) in their current order.
 */
export function planMoves<T>(desired: readonly T[], current: readonly T[]): Move<T>[] {
  // Already in order (most lists of most plans): nothing to build.
  if (sameOrder(desired, current)) return [];
  const position = new Map<T, number>();
  current.forEach((item, i) => position.set(item, i));
  // Made at its length and filled, not by `map`: `map`'s array is packed when the interpreter runs
  // it and holey once TurboFan inlines it here, and `longestIncreasingSubsequence`, optimized for
  // the first, was dropped at the second (wrong map; the benchmark organization's plan, every run).
  const seq = new Array<number>(desired.length);
  for (let i = 0; i < desired.length; i += 1) seq[i] = position.get(desired[i]!) ?? Number.MAX_SAFE_INTEGER;
  const keep = new Set(longestIncreasingSubsequence(seq).map((i) => desired[i]!));
  const inDesired = new Set(desired);
  const order = current.filter((item) => inDesired.has(item));
  const moves: Move<T>[] = [];
  for (let i = desired.length - 1; i >= 0; i -= 1) {
    const item = desired[i]!;
    if (keep.has(item)) continue;
    const from = order.indexOf(item);
    order.splice(from, 1);
    if (i < desired.length - 1) {
      const before = desired[i + 1]!;
      order.splice(order.indexOf(before), 0, item);
      moves.push({ item, before });
    } else {
      const after = order[order.length - 1]!;
      order.push(item);
      moves.push({ item, after });
    }
  }
  return moves;
}

function sameOrder<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** What a list's items need for their moves to become drafts. */
export type Movable = { addr: string; ref: Ref; createKey?: string };

/**
 * Add one `move` draft per move of a list, chained in order (each move's reference is valid when
 * it runs). `label` names an item in the plan; `op` builds the API call.
 */
export function addMoves<T extends Movable, O extends OpShape>(
  drafts: KindDrafts<O>,
  desired: readonly T[],
  current: readonly T[],
  label: (item: T) => string,
  op: (item: T, position: Position) => NoInfer<O>,
): void {
  let previous: string | undefined;
  for (const move of planMoves(desired, current)) {
    const anchor = (move.before ?? move.after)!;
    previous = drafts.move({
      address: move.item.addr,
      before: null,
      after: move.before ? { before: label(anchor) } : { after: label(anchor) },
      deps: [move.item.createKey, anchor.createKey, previous],
      op: op(move.item, move.before ? { before: anchor.ref } : { after: anchor.ref }),
    });
  }
}
