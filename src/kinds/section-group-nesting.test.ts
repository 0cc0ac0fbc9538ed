import { describe, expect, it } from 'vitest';
import {
  innermostFirst,
  nestingIssues,
  parentChange,
  parentsFirst,
  type NestedSlot,
} from './section-group-nesting.js';
import type { LiveSectionGroup } from './site-section.js';

const g = (title: string, parent?: string | null) => ({ title, ...(parent !== undefined ? { parent } : {}) });
const live = (id: string, parent: string | null): LiveSectionGroup => ({
  id,
  title: id.toUpperCase(),
  icon: null,
  draft: false,
  localizedTitle: {},
  parent,
});

describe('nested section groups, the pure parts', () => {
  it.each([
    ['root groups', [g('A'), g('B')], []],
    ['a known parent', [g('A'), g('B', 'A')], []],
    ['null: the root', [g('A', null)], []],
    ['an unknown parent', [g('A', 'Z')], [[0, 'no section group titled "Z" in this site']]],
    [
      'a parent named twice',
      [g('A'), g('A'), g('B', 'A')],
      [[2, 'several section groups are titled "A": the parent is ambiguous']],
    ],
    ['itself', [g('A', 'A')], [[0, 'a section group cannot be nested in itself (A → A)']]],
    [
      'a cycle of two',
      [g('A', 'B'), g('B', 'A')],
      [
        [0, 'a section group cannot be nested in itself (A → B → A)'],
        [1, 'a section group cannot be nested in itself (B → A → B)'],
      ],
    ],
  ])('checks %s', (_, groups, issues) => {
    expect(nestingIssues(groups)).toEqual(issues);
  });

  it('puts parents first, siblings in their order, and survives a cycle', () => {
    const list = [g('C', 'B'), g('B', 'A'), g('X'), g('A'), g('D', 'A')];
    expect(parentsFirst(list).map((x) => x.title)).toEqual(['X', 'A', 'B', 'D', 'C']);
    expect(parentsFirst([g('A', 'B'), g('B', 'A')]).map((x) => x.title)).toHaveLength(2);
  });

  it('deletes the innermost groups first', () => {
    const groups = [live('a', null), live('b', 'a'), live('c', 'b'), live('d', null)];
    expect(innermostFirst(groups).map((x) => x.id)).toEqual(['c', 'b', 'a', 'd']);
  });

  it.each([
    ['unmanaged', undefined, 'p', undefined],
    ['already there', 'P', 'p', undefined],
    ['to the root', null, 'p', { before: 'P', after: null, field: null }],
    ['already at the root', null, null, undefined],
    ['into a group', 'P', null, { before: null, after: 'P', field: { $ref: { id: 'p' } } }],
  ])('a move between groups: %s', (_, want, have, change) => {
    const slot: NestedSlot = {
      title: 'G',
      addr: 'o/sites/S/section-groups/G',
      ref: { id: 'g' },
      d: { title: 'G', ...(want !== undefined ? { parent: want } : {}) },
      l: live('g', have),
    };
    const parent: NestedSlot = {
      title: 'P',
      addr: '',
      ref: { id: 'p' },
      d: { title: 'P' },
      l: live('p', null),
    };
    expect(
      parentChange(
        slot,
        (t) => (t === 'P' ? parent : undefined),
        (id) => id.toUpperCase(),
      ),
    ).toEqual(change);
  });
});
