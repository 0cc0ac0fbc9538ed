import type { OrgDiff } from '../reconcile/diff.js';

/** A binary min-heap of numbers (emission indices): the stable tie-break of the topological sort. */
class MinHeap {
  private readonly items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(value: number): void {
    const a = this.items;
    a.push(value);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = a[parent]!;
      if (up <= value) break;
      // Swaps by hand: a destructuring swap builds an array and iterates it until optimized.
      a[i] = up;
      a[parent] = value;
      i = parent;
    }
  }
  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        const down = a[m]!;
        a[m] = a[i]!;
        a[i] = down;
        i = m;
      }
    }
    return top;
  }
}

export type Draft = OrgDiff['drafts'][number];

/** Each draft's index by its key. */
export function indexByKey(drafts: readonly Draft[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < drafts.length; i += 1) index.set(drafts[i]!.key, i);
  return index;
}

/**
 * Whether every draft waits only for drafts emitted before it: then the order is the emission order
 * (the smallest index left is always ready), and no heap is needed.
 */
export function dependsBackward(drafts: readonly Draft[], index: ReadonlyMap<string, number>): boolean {
  for (let i = 0; i < drafts.length; i += 1)
    for (const dep of drafts[i]!.deps) {
      const j = index.get(dep);
      if (j !== undefined && j >= i) return false;
    }
  return true;
}

/** A draft's place in the plan, by its emission index. */
export function positionsOf(order: readonly number[]): number[] {
  const position = new Array<number>(order.length);
  for (let n = 0; n < order.length; n += 1) position[order[n]!] = n;
  return position;
}

/** Every draft in the order it was emitted (none waits for a later one). */
export function emissionOrder(count: number): { order: number[]; indegree: number[] } {
  const order = new Array<number>(count);
  for (let i = 0; i < count; i += 1) order[i] = i;
  return { order, indegree: [] };
}

/**
 * Kahn's algorithm, ties broken by emission order (a min-heap of indices). `indegree` keeps what
 * is left for the drafts in a cycle (`order` is then shorter than the drafts).
 */
export function dependencyOrder(
  drafts: readonly OrgDiff['drafts'][number][],
  index: Map<string, number>,
): { order: number[]; indegree: number[] } {
  const count = drafts.length;
  const indegree = new Array<number>(count).fill(0);
  const dependents = new Array<number[] | undefined>(count);
  for (let i = 0; i < count; i += 1)
    for (const dep of drafts[i]!.deps) {
      const j = index.get(dep);
      if (j === undefined) continue;
      indegree[i]! += 1;
      const list = dependents[j];
      if (list) list.push(i);
      else dependents[j] = [i];
    }
  const heap = new MinHeap();
  for (let i = 0; i < count; i += 1) if (indegree[i] === 0) heap.push(i);
  const order: number[] = [];
  while (heap.size > 0) {
    const i = heap.pop();
    order.push(i);
    for (const j of dependents[i] ?? []) {
      indegree[j]! -= 1;
      if (indegree[j] === 0) heap.push(j);
    }
  }
  return { order, indegree };
}
