import { describe, expect, it } from 'vitest';
import { DocsyncError } from '../errors.js';
import { DraftSet, type DraftInput } from './draft.js';

const draft = (name: string): DraftInput => ({
  key: `update:org/x/${name}`,
  action: 'update',
  kind: 'team',
  address: `org/x/${name}`,
  before: null,
  after: null,
  op: { type: 'update-team' },
});

const setOf = (names: readonly string[]): DraftSet => {
  const set = new DraftSet();
  for (const n of names) set.add(draft(n));
  return set;
};

/** What adding `other`'s drafts one by one (as `absorb` first did) throws, if anything. */
function oneByOne(here: readonly string[], other: readonly string[]): string | undefined {
  const set = setOf(here);
  try {
    for (const n of other) set.add(draft(n));
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

describe('DraftSet.absorb', () => {
  it.each<[string, string[], string[]]>([
    ['disjoint, this set smaller', ['a'], ['b', 'c', 'd']],
    ['disjoint, this set larger', ['a', 'b', 'c'], ['d']],
    ['disjoint, one empty', [], ['a', 'b']],
    ['a shared key, this set smaller', ['c'], ['a', 'b', 'c', 'd']],
    ['a shared key, this set larger', ['a', 'b', 'c', 'd'], ['e', 'c']],
    [
      'two shared keys: the first in the other set’s order is named',
      ['d', 'b', 'x', 'y', 'z'],
      ['a', 'b', 'c', 'd'],
    ],
    ['two shared keys, this set smaller', ['d', 'b'], ['a', 'c', 'd', 'e', 'b']],
  ])('refuses or takes what adding one by one would (%s)', (_what, here, other) => {
    const set = setOf(here);
    const want = oneByOne(here, other);
    if (want === undefined) {
      set.absorb(setOf(other));
      expect(set.drafts.map((d) => d.address)).toEqual([...here, ...other].map((n) => `org/x/${n}`));
      for (const n of [...here, ...other]) expect(set.get(`update:org/x/${n}`)?.address).toBe(`org/x/${n}`);
    } else {
      expect(() => set.absorb(setOf(other))).toThrow(DocsyncError);
      expect(() => setOf(here).absorb(setOf(other))).toThrow(want);
    }
  });
});

describe('DraftSet.at', () => {
  /** What a scan of every draft finds at each address: what `at` must answer. */
  const scanned = (set: DraftSet, address: string) =>
    set.drafts.filter((d) => d.address === address).map((d) => d.key);

  it('answers what a scan would, for drafts added before and after the first ask, and absorbed', () => {
    const set = setOf(['a', 'b']);
    set.add({ ...draft('a'), key: 'delete:org/x/a#1', action: 'delete' });
    expect(set.at('org/x/a').map((d) => d.key)).toEqual(scanned(set, 'org/x/a'));
    set.add({ ...draft('c'), key: 'move:org/x/a', address: 'org/x/a' });
    set.add(draft('d'));
    set.absorb(setOf(['e', 'f']));
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f', 'none'])
      expect(set.at(`org/x/${n}`).map((d) => d.key)).toEqual(scanned(set, `org/x/${n}`));
    expect(set.at('org/x/a').map((d) => d.key)).toEqual([
      'update:org/x/a',
      'delete:org/x/a#1',
      'move:org/x/a',
    ]);
  });
});
