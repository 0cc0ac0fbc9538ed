import { describe, expect, it } from 'vitest';
import { aggregateList, compareAggregates, type AggregateItem } from './aggregate.js';
import { effectiveAccess, type AccessModel } from './effective.js';

const model: AccessModel = {
  members: [
    { id: 'u_admin', email: 'boss@acme.com', role: 'admin' },
    { id: 'u_ann', email: 'ann@acme.com', role: 'read' },
  ],
  teams: [{ id: 't_platform', title: 'Platform', members: ['u_ann'] }],
  objects: [
    { noun: 'space', id: 's_api', title: 'API Reference', parent: null, defaultLevel: null },
    { noun: 'site', id: 'site_docs', title: 'Docs', defaultLevel: null },
  ],
  grants: [{ object: 's_api', subject: { team: 't_platform' }, role: 'edit' }],
};
const matrix = effectiveAccess(model);
const emails = new Map(model.members.map((m) => [m.id, m.email]));
const item = (id: string, permission: AggregateItem['permission'], email?: string): AggregateItem => ({
  user: { id, ...(email ? { email } : {}) },
  permission,
});

describe('the live computation against permissions/aggregate', () => {
  it.each<[string, AggregateItem[], string[]]>([
    ['the same answer: no warning', [item('u_admin', 'admin'), item('u_ann', 'edit')], []],
    [
      'another role: both named',
      [item('u_admin', 'admin'), item('u_ann', 'read')],
      [
        "space API Reference: the API's permissions/aggregate gives ann@acme.com read; docsync computes edit (via team Platform)",
      ],
    ],
    [
      'a user only the API lists, and one it leaves out',
      [item('u_admin', 'admin'), item('u_x', 'comment', 'x@acme.com')],
      [
        "space API Reference: the API's permissions/aggregate gives x@acme.com comment; docsync computes no access",
        "space API Reference: the API's permissions/aggregate gives ann@acme.com no access; docsync computes edit (via team Platform)",
      ],
    ],
  ])('%s', (_what, items, want) => {
    expect(compareAggregates(matrix, [{ object: 's_api', items }], emails)).toEqual(want);
  });

  it('caps the warnings with "and N more"', () => {
    const answers = Array.from({ length: 25 }, () => ({
      object: 'site_docs',
      items: [item('u_admin', 'read')],
    }));
    const warnings = compareAggregates(matrix, answers, emails);
    expect(warnings).toHaveLength(21);
    expect(warnings.at(-1)).toBe('and 5 more differences from permissions/aggregate');
  });

  it('reads one aggregate list per object, at the official routes', () => {
    expect(aggregateList('org', 'space', 's1')?.route).toBe('/spaces/{space}/permissions/aggregate');
    expect(aggregateList('org', 'collection', 'c1')?.route).toBe(
      '/collections/{collection}/permissions/aggregate',
    );
    expect(aggregateList('org', 'site', 'x')).toMatchObject({
      route: '/orgs/{org}/sites/{site}/permissions/aggregate',
      params: { org: 'org', site: 'x' },
    });
  });
});
