import { describe, expect, it } from 'vitest';
import { anchorsFirst, placedLinks } from './external-link-place.js';

describe('where external links are', () => {
  it('reads each link with its group and the item before it, at any depth', () => {
    const structure = [
      { object: 'site-section', id: 's1', path: 'guides', title: 'Guides' },
      { object: 'site-external-link', id: 'l1', title: 'Status' },
      {
        object: 'site-section-group',
        id: 'g1',
        title: 'Products',
        children: [
          { object: 'site-external-link', id: 'l2', title: 'Store' },
          {
            object: 'site-section-group',
            id: 'g2',
            title: 'Inner',
            children: [{ object: 'site-external-link', id: 'l3', title: 'Deep' }],
          },
          { object: 'site-external-link', id: 'l4', title: 'After inner' },
        ],
      },
      { object: 'site-external-link', id: 'l5', title: 'Last' },
    ];
    expect(
      placedLinks(structure).map((x) => [x.link.id, x.group, x.prev?.name ?? null, x.prev?.type ?? null]),
    ).toEqual([
      ['l1', null, 'guides', 'site-section'],
      ['l2', 'g1', null, null],
      ['l3', 'g2', null, null],
      ['l4', 'g1', 'Inner', 'site-section-group'],
      ['l5', null, 'Products', 'site-section-group'],
    ]);
  });

  it('orders the links placed after links after them', () => {
    const l = (title: string, after?: string) => ({ d: { title, ...(after ? { after } : {}) } });
    const list = [l('C', 'B'), l('B', 'A'), l('A', 'guides'), l('D', 'api')];
    expect(anchorsFirst(list).map((x) => x.d.title)).toEqual(['A', 'B', 'C', 'D']);
  });
});
