import { describe, expect, it } from 'vitest';
import {
  accessRows,
  accessSentence,
  diffAccess,
  effectiveAccess,
  roleOf,
  type AccessModel,
} from './effective.js';

const model = (over: Partial<AccessModel> = {}): AccessModel => ({
  members: [
    { id: 'u_admin', email: 'boss@acme.com', role: 'admin' },
    { id: 'u_ann', email: 'ann@acme.com', role: 'read' },
    { id: 'u_bob', email: 'bob@acme.com', role: 'edit' },
    { id: 'u_guest', email: 'guest@x.com', role: null },
  ],
  teams: [{ id: 't_platform', title: 'Platform', members: ['u_ann'] }],
  objects: [
    { noun: 'collection', id: 'c_product', title: 'Product', parent: null, defaultLevel: 'read' },
    { noun: 'space', id: 's_api', title: 'API Reference', parent: 'c_product', defaultLevel: 'inherit' },
    { noun: 'space', id: 's_hand', title: 'Handbook', parent: null, defaultLevel: 'inherit' },
    { noun: 'site', id: 'site_docs', title: 'Docs', defaultLevel: null },
  ],
  grants: [{ object: 'c_product', subject: { team: 't_platform' }, role: 'edit' }],
  ...over,
});
const emails = new Map(model().members.map((m) => [m.id, m.email]));

describe('effectiveAccess', () => {
  const m = effectiveAccess(model());
  const role = (object: string, user: string) => roleOf(m.rows.get(object)!, user, m.orgRoles);
  it.each([
    ['s_api', 'u_ann', { role: 'edit', via: 'team Platform on collection Product' }],
    ['s_api', 'u_bob', { role: 'read', via: 'default level of collection Product' }],
    ['s_api', 'u_admin', { role: 'admin', via: 'organization admin' }],
    ['s_hand', 'u_bob', { role: 'edit', via: 'organization role' }],
    ['s_hand', 'u_guest', null],
    ['site_docs', 'u_ann', null],
    ['site_docs', 'u_admin', { role: 'admin', via: 'organization admin' }],
  ])('%s, %s → %j', (object, user, want) => expect(role(object, user)).toEqual(want));

  it('lists per object only the members above the default', () => {
    expect([...m.rows.get('s_api')!.users.keys()].sort()).toEqual(['u_ann']);
    expect(accessRows(m, emails).filter((r) => r.object === 'space API Reference')).toEqual([
      {
        object: 'space API Reference',
        subject: 'all members',
        role: 'read',
        via: 'default level of collection Product',
      },
      {
        object: 'space API Reference',
        subject: 'ann@acme.com',
        role: 'edit',
        via: 'team Platform on collection Product',
      },
    ]);
  });
});

describe('diffAccess: the review sentences', () => {
  const before = effectiveAccess(model());
  it.each([
    [
      'a team grant lowered',
      model({ grants: [{ object: 'c_product', subject: { team: 't_platform' }, role: 'read' }] }),
      [
        'Team Platform: edit → read on collection Product (via direct grant)',
        // Read is what every member gets here: the reason after the plan is the default level.
        'ann@acme.com: edit → read on collection Product (via default level of collection Product)',
        'Team Platform: edit → read on space API Reference (via grant on collection Product)',
        'ann@acme.com: edit → read on space API Reference (via default level of collection Product)',
      ],
    ],
    [
      'a user joins a team with a grant',
      model({ teams: [{ id: 't_platform', title: 'Platform', members: ['u_ann', 'u_bob'] }] }),
      [
        'bob@acme.com: read → edit on collection Product (via team Platform)',
        'bob@acme.com: read → edit on space API Reference (via team Platform on collection Product)',
      ],
    ],
    [
      'a site grant to a user',
      model({
        grants: [...model().grants, { object: 'site_docs', subject: { user: 'u_bob' }, role: 'admin' }],
      }),
      ['bob@acme.com gains admin on site Docs (via direct grant)'],
    ],
    [
      'a default level changed',
      model({
        objects: model().objects.map((o) =>
          o.id === 's_hand' ? { ...o, defaultLevel: 'read' as const } : o,
        ),
      }),
      [
        'all members: their organization role → read on space Handbook (via default level of space Handbook)',
        'bob@acme.com: edit → read on space Handbook (via default level of space Handbook)',
      ],
    ],
  ])('%s', (_what, after, sentences) => {
    const got = diffAccess(before, effectiveAccess(after), emails).map((c) => accessSentence(c));
    expect(got).toEqual(sentences);
  });
  it('no change, no sentence', () =>
    expect(diffAccess(before, effectiveAccess(model()), emails)).toEqual([]));
});
