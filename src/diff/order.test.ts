import { describe, expect, it } from 'vitest';
import { longestIncreasingSubsequence, planMoves } from './order.js';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Length of the longest increasing subsequence by trying every subset (small n only). */
function bruteForceLis(seq: number[]): number {
  let best = 0;
  for (let mask = 0; mask < 1 << seq.length; mask += 1) {
    let last = -Infinity;
    let ok = true;
    let n = 0;
    for (let i = 0; i < seq.length && ok; i += 1) {
      if (!(mask & (1 << i))) continue;
      if (seq[i]! <= last) ok = false;
      last = seq[i]!;
      n += 1;
    }
    if (ok) best = Math.max(best, n);
  }
  return best;
}

/** Run the moves on a list, the way the API would. */
function simulate<T>(current: T[], moves: ReturnType<typeof planMoves<T>>): T[] {
  const list = [...current];
  for (const m of moves) {
    list.splice(list.indexOf(m.item), 1);
    const anchor = (m.before ?? m.after)!;
    expect(list).toContain(anchor);
    list.splice(list.indexOf(anchor) + (m.before ? 0 : 1), 0, m.item);
  }
  return list;
}

describe('longestIncreasingSubsequence', () => {
  it.each([
    [[], 0],
    [[1], 1],
    [[3, 2, 1], 1],
    [[1, 2, 3], 3],
    [[2, 0, 3, 1, 4], 3],
  ])('%j has an LIS of length %i', (seq, n) => {
    const idx = longestIncreasingSubsequence(seq);
    expect(idx).toHaveLength(n);
    for (let i = 1; i < idx.length; i += 1) expect(seq[idx[i]!]!).toBeGreaterThan(seq[idx[i - 1]!]!);
  });
  it('matches brute force on 300 random sequences (n ≤ 10)', () => {
    const random = rng(1);
    for (let k = 0; k < 300; k += 1) {
      const n = Math.floor(random() * 11);
      const seq = shuffle([...Array(n).keys()], random);
      expect(longestIncreasingSubsequence(seq)).toHaveLength(bruteForceLis(seq));
    }
  });
});

describe('planMoves', () => {
  it.each([
    ['reverse', ['a', 'b', 'c', 'd'], ['d', 'c', 'b', 'a']],
    ['rotate', ['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'a']],
    ['swap', ['a', 'b', 'c', 'd'], ['a', 'c', 'b', 'd']],
    ['identity', ['a', 'b', 'c'], ['a', 'b', 'c']],
    ['last to first', ['a', 'b', 'c'], ['c', 'a', 'b']],
  ])('%s: reaches the desired order with n − LIS moves', (_name, current, desired) => {
    const moves = planMoves(desired, current);
    expect(simulate(current, moves)).toEqual(desired);
    const positions = desired.map((x) => current.indexOf(x));
    expect(moves).toHaveLength(desired.length - bruteForceLis(positions));
  });
  it('is minimal and correct for 500 random permutations (n ≤ 10), against brute force', () => {
    const random = rng(2);
    for (let k = 0; k < 500; k += 1) {
      const n = 1 + Math.floor(random() * 10);
      const current = [...Array(n).keys()].map((i) => `s${i}`);
      const desired = shuffle(current, random);
      const moves = planMoves(desired, current);
      expect(simulate(current, moves)).toEqual(desired);
      expect(moves).toHaveLength(n - bruteForceLis(desired.map((x) => current.indexOf(x))));
    }
  });
  it('leaves items it does not manage where they are', () => {
    const current = ['x', 'a', 'y', 'b', 'c'];
    const desired = ['c', 'a', 'b'];
    const after = simulate(current, planMoves(desired, current));
    expect(after.filter((i) => desired.includes(i))).toEqual(desired);
    expect(after).toHaveLength(5);
  });
});
