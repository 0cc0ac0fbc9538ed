import { describe, expect, it } from 'vitest';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/state.js';
import { accessSentence, diffAccess, effectiveAccess } from './effective.js';
import { accessModels, emailsOf, liveAccessModel } from './model.js';

/** Live state of one organization; grants under `access` (the grant kinds' key). */
const live = (): LiveOrganization =>
  ({
    id: 'org',
    self: 'u_bot',
    members: [
      { userId: 'u_bot', email: 'bot@acme.com', role: 'admin' },
      { userId: 'u_ann', email: 'ann@acme.com', role: 'read' },
      { userId: 'u_bob', email: 'bob@acme.com', role: 'read' },
    ],
    teams: [
      { id: 't_support', title: 'Support', members: [{ userId: 'u_bob', email: null, role: 'member' }] },
    ],
    collections: [
      {
        id: 'c_product',
        title: 'Product',
        description: null,
        defaultLevel: 'inherit',
        parent: null,
        access: [{ team: 't_support', role: 'comment' }],
      },
      { id: 'c_other', title: 'Other', description: null, defaultLevel: null, parent: null },
    ],
    spaces: [
      {
        id: 's_api',
        title: 'API Reference',
        defaultLevel: 'inherit',
        parent: 'c_product',
        access: [
          { team: 't_support', role: 'edit' },
          { member: 'u_bot', role: 'admin' },
        ],
      },
    ],
    sites: [{ id: 'site_docs', title: 'Docs', access: [] }],
  }) as unknown as LiveOrganization;

const desired = (over: Record<string, unknown>): DesiredOrganization =>
  ({ id: 'org', policy: { prune: false, maxDeletes: 10 }, ...over }) as unknown as DesiredOrganization;

/** The review sentences of a plan from `live()` to `d`. */
function sentences(d: DesiredOrganization, l = live()): string[] {
  const { before, after } = accessModels(d, l);
  return diffAccess(effectiveAccess(before), effectiveAccess(after), emailsOf(before, after)).map((c) =>
    accessSentence(c),
  );
}

describe('liveAccessModel', () => {
  it('reads members, teams, objects and their grants by id', () => {
    const m = liveAccessModel(live());
    expect(m.teams).toEqual([{ id: 't_support', title: 'Support', members: ['u_bob'] }]);
    expect(m.objects.map((o) => `${o.noun}:${o.id}:${o.parent ?? '-'}:${o.defaultLevel}`)).toEqual([
      'collection:c_product:-:inherit',
      'collection:c_other:-:null',
      'space:s_api:c_product:inherit',
      'site:site_docs:-:null',
    ]);
    expect(m.grants).toEqual([
      { object: 'c_product', subject: { team: 't_support' }, role: 'comment' },
      { object: 's_api', subject: { team: 't_support' }, role: 'edit' },
      { object: 's_api', subject: { user: 'u_bot' }, role: 'admin' },
    ]);
  });
});

describe('the access after the plan, as review sentences', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'a team grant lowered by title',
      { spaces: [{ id: 's_api', access: [{ team: 'Support', role: 'read' }] }] },
      [
        'Team Support: edit → comment on space API Reference (via grant on collection Product)',
        'bob@acme.com: edit → comment on space API Reference (via team Support on collection Product)',
      ],
    ],
    [
      'a team the plan creates counts with its desired members',
      {
        teams: [
          { title: 'Support' },
          { title: 'Platform', members: [{ user: 'ann@acme.com', role: 'member' }] },
        ],
        sites: [{ title: 'Docs', access: [{ team: 'Platform', role: 'admin' }] }],
      },
      [
        'Team Platform gains admin on site Docs (via direct grant)',
        'ann@acme.com gains admin on site Docs (via team Platform)',
      ],
    ],
    [
      'an invited member granted by e-mail',
      {
        members: [{ user: 'new@acme.com', role: 'read' }],
        sites: [{ title: 'Docs', access: [{ member: 'new@acme.com', role: 'edit' }] }],
      },
      [
        'new@acme.com gains read on collection Product (via organization role)',
        'new@acme.com gains edit on site Docs (via direct grant)',
        'new@acme.com gains read on space API Reference (via organization role)',
      ],
    ],
    [
      'a space moved out of the collection that granted its team',
      { spaces: [{ id: 's_api', parent: 'Other' }] },
      [
        'all members: their organization role → nothing on space API Reference (via default level: inherit)',
        'ann@acme.com loses read on space API Reference (via organization role)',
      ],
    ],
    [
      'a collection default level raised',
      { collections: [{ title: 'Product', defaultLevel: 'comment' }, { title: 'Other' }] },
      [
        'all members: their organization role → comment on collection Product (via default level of collection Product)',
        'ann@acme.com: read → comment on collection Product (via default level of collection Product)',
        'all members: their organization role → comment on space API Reference (via default level of collection Product)',
        'ann@acme.com: read → comment on space API Reference (via default level of collection Product)',
      ],
    ],
    ['nothing about access changes', { spaces: [{ id: 's_api', emoji: '📘' }] }, []],
  ])('%s', (_what, over, want) => expect(sentences(desired(over))).toEqual(want));

  it('keeps the live grants an access list omits unless policy.prune; never the token’s own', () => {
    const omit = { spaces: [{ id: 's_api', access: [{ team: 'Support', role: 'edit' }] }] };
    expect(sentences(desired(omit))).toEqual([]);
    const pruned = desired({ ...omit, policy: { prune: true, maxDeletes: 10 } });
    // The token's own admin grant stays; the teams and sites the config omits are not pruned here
    // because it lists no teams or sites.
    expect(sentences(pruned)).toEqual([]);
    const { after } = accessModels(pruned, live());
    expect(after.grants.filter((g) => g.object === 's_api')).toEqual([
      { object: 's_api', subject: { team: 't_support' }, role: 'edit' },
      { object: 's_api', subject: { user: 'u_bot' }, role: 'admin' },
    ]);
    const dropped = desired({
      spaces: [{ id: 's_api', access: [] }],
      policy: { prune: true, maxDeletes: 10 },
    });
    expect(sentences(dropped)).toEqual([
      'Team Support: edit → comment on space API Reference (via grant on collection Product)',
      'bob@acme.com: edit → comment on space API Reference (via team Support on collection Product)',
    ]);
  });
});
