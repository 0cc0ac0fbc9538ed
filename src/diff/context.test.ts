import { describe, expect, it } from 'vitest';
import { diffContext } from '../../test/helpers/diff-context.js';
import { rng } from '../../test/helpers/random-state.js';
import { pick, shuffle, type Random } from '../kinds/examples.js';
import { pairAll, pairByIdentity, pairedInOrder, type DiffContext } from './context.js';

/**
 * `pairByIdentity`'s pairs in order (`pairedInOrder`, taken where the config lists the live items
 * in their order by name) against the general pairing by maps (`pairAll`): the same pairs, left
 * over, duplicates, warnings and problems, on lists in order and near it (a name twice live or in
 * the config, a pin, a rename, an item more or less, two swapped, another case).
 */

type Entry = { name: string; id?: string; previously?: string[] };
type Item = { id: string; name: string };

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'A'];

const liveOf = (r: Random, n: number, unique: boolean): Item[] => {
  const names = unique ? shuffle(r, NAMES).slice(0, n) : Array.from({ length: n }, () => pick(r, NAMES));
  return names.map((name, i) => ({ id: `id_${i}`, name }));
};

type Change = { name: string; apply: (d: Entry[], l: Item[], r: Random) => void };
const changes: Change[] = [
  { name: 'in order', apply: () => {} },
  {
    name: 'a pin',
    apply: (d, l, r) => void (d.length && (pick(r, d).id = l.length ? pick(r, l).id : 'x')),
  },
  { name: 'a pin to nothing', apply: (d, _l, r) => void (d.length && (pick(r, d).id = 'gone')) },
  {
    name: 'a rename',
    apply: (d, _l, r) => void (d.length && Object.assign(pick(r, d), { name: 'z', previously: ['a', 'b'] })),
  },
  { name: 'an entry more', apply: (d) => void d.push({ name: 'new' }) },
  { name: 'an entry less', apply: (d) => void d.pop() },
  { name: 'a live item more', apply: (_d, l) => void l.push({ id: 'id_more', name: 'more' }) },
  {
    name: 'a live twin',
    apply: (_d, l, r) => void (l.length && l.push({ id: 'id_twin', name: pick(r, l).name })),
  },
  { name: 'an entry twice', apply: (d, _l, r) => void (d.length && d.push({ name: pick(r, d).name })) },
  { name: 'two swapped', apply: (d) => void (d.length > 1 && d.splice(0, 2, d[1]!, d[0]!)) },
  {
    name: 'another case',
    apply: (d, _l, r) => void (d.length && (pick(r, d).name = pick(r, d).name.toUpperCase())),
  },
];

const context = (): DiffContext => ({ ...diffContext({ prune: true }), org: 'org' });
const nameOf = (x: Entry | Item) => x.name;
const inOrder = (d: Entry[], l: Item[]) => pairedInOrder<Entry, Item>(d, l, nameOf);
const outcome = (ctx: DiffContext, r: ReturnType<typeof pairAll<Entry, Item>>) => ({
  pairs: r.pairs,
  leftover: r.leftover,
  duplicates: ctx.duplicates,
  warnings: ctx.warnings,
  problems: ctx.problems,
});

describe('pairByIdentity in order', () => {
  it('pairs as the general pairing does, in order and near it', () => {
    let fast = 0;
    for (let seed = 1; seed <= 150; seed += 1)
      for (const change of changes) {
        const r = rng(seed);
        // Past the pairwise check's size too (a set tells the names apart there).
        const n = seed % 5 === 0 ? 0 : seed % 7 === 0 ? 40 : Math.floor(r() * 8);
        const unique = r() < 0.8;
        const base =
          n > NAMES.length
            ? Array.from({ length: n }, (_, i) => ({ id: `id_${i}`, name: `n${i % (unique ? n : 30)}` }))
            : liveOf(r, n, unique);
        const live = base.map((x) => ({ ...x }));
        const desired: Entry[] = live.map((x) => ({ name: x.name }));
        change.apply(desired, live, r);
        if (inOrder(desired, live)) fast += 1;
        const a = context();
        const b = context();
        const got = outcome(a, pairByIdentity(a, 'thing', desired, live, nameOf));
        const want = outcome(b, pairAll(b, 'thing', desired, live, nameOf));
        expect(got, `seed ${seed}, ${change.name}`).toEqual(want);
        // The same objects, not copies.
        got.pairs.forEach(([d, l], i) => {
          expect(d).toBe(want.pairs[i]![0]);
          expect(l).toBe(want.pairs[i]![1]);
        });
      }
    // Taken often enough to be tested, and not where the lists differ.
    expect(fast).toBeGreaterThan(150);
  });

  it('is not taken where a name is twice live, an entry is pinned, or the names differ', () => {
    const live = [
      { id: '1', name: 'a' },
      { id: '2', name: 'b' },
    ];
    expect(inOrder([{ name: 'a' }, { name: 'b' }], live)).toEqual([
      [{ name: 'a' }, live[0]],
      [{ name: 'b' }, live[1]],
    ]);
    expect(inOrder([{ name: 'a' }, { name: 'a' }], [live[0]!, { id: '3', name: 'a' }])).toBeUndefined();
    expect(inOrder([{ name: 'a', id: '1' }, { name: 'b' }], live)).toBeUndefined();
    expect(inOrder([{ name: 'b' }, { name: 'a' }], live)).toBeUndefined();
    expect(inOrder([{ name: 'a' }], live)).toBeUndefined();
    const many = Array.from({ length: 20 }, (_, i) => ({ id: `${i}`, name: `n${i}` }));
    expect(
      inOrder(
        many.map((x) => ({ name: x.name })),
        many,
      ),
    ).toHaveLength(20);
    const twin = many.map((x, i) => ({ ...x, name: i === 19 ? 'n0' : x.name }));
    expect(
      inOrder(
        twin.map((x) => ({ name: x.name })),
        twin,
      ),
    ).toBeUndefined();
  });
});
