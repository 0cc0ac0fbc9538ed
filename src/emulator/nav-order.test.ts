import { describe, expect, it } from 'vitest';
import { isWithin, levelOf, navOrder, placeInNav, toEnd } from './nav-order.js';
import type { EmuSite } from './state.js';

/** A site with sections s1 s2 (s2 in group g1), groups g1 g2 (g2 in g1) and links l1 (root) l2 (in g1). */
function site(): EmuSite {
  const section = (id: string, groupId: string | null) => ({ id, groupId }) as EmuSite['sections'][number];
  return {
    sections: [section('s1', null), section('s2', 'g1')],
    groups: [
      { id: 'g1', title: 'G1', icon: null },
      { id: 'g2', title: 'G2', icon: null, parentId: 'g1' },
    ],
    externalLinks: [{ id: 'l1' }, { id: 'l2', groupId: 'g1' } as { id: string }],
  } as unknown as EmuSite;
}

describe("the emulator's navigation order", () => {
  it('is sections, groups then links until a sort or a creation records one', () => {
    const s = site();
    expect(navOrder(s)).toEqual(['s1', 's2', 'g1', 'g2', 'l1', 'l2']);
    expect(levelOf(s, null).map((x) => x.id)).toEqual(['s1', 'g1', 'l1']);
    expect(levelOf(s, 'g1').map((x) => `${x.type} ${x.id}`)).toEqual([
      'site-section s2',
      'site-section-group g2',
      'site-external-link l2',
    ]);
  });

  it('places an item before or after any other, and keeps the typed lists in that order', () => {
    const s = site();
    placeInNav(s, 'l1', 's1', 'after');
    expect(levelOf(s, null).map((x) => x.id)).toEqual(['s1', 'l1', 'g1']);
    placeInNav(s, 'g2', 's2', 'before');
    expect(levelOf(s, 'g1').map((x) => x.id)).toEqual(['g2', 's2', 'l2']);
    placeInNav(s, 's2', 's1', 'before');
    expect(s.sections.map((x) => x.id)).toEqual(['s2', 's1']);
  });

  it('puts an item that arrives last, and knows what is inside a group', () => {
    const s = site();
    toEnd(s, 's1');
    expect(navOrder(s)).toEqual(['s2', 'g1', 'g2', 'l1', 'l2', 's1']);
    expect([isWithin(s, 'g2', 'g1'), isWithin(s, 'g1', 'g2'), isWithin(s, 'g1', 'g1')]).toEqual([
      true,
      false,
      true,
    ]);
  });
});
