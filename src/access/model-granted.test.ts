import { describe, expect, it } from 'vitest';
import { rng } from '../../test/helpers/random-state.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/state.js';
import { accessRows, diffAccess, effectiveAccess, type AccessModel } from './effective.js';
import { accessModels, emailsOf, grantedAccessModels } from './model.js';

/**
 * `grantedAccessModels` leaves out the teams no grant names (issue 33: 15,000 teams and no team
 * grant are not paired at all); effective access, its difference and its audit rows must be the
 * same as from the full models of `accessModels`, over many random organizations.
 */

const ROLES = ['read', 'comment', 'edit', 'admin'] as const;
const LEVELS = ['inherit', null, 'read', 'edit'] as const;

/** A random live organization and a desired one against it: renames, pins, prunes, grants. */
function randomOrgs(seed: number): { desired: DesiredOrganization; live: LiveOrganization } {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => r() < p);
  const users = Array.from({ length: 2 + Math.floor(r() * 5) }, (_, i) => `u${i}`);
  const teamIds = Array.from({ length: Math.floor(r() * 6) }, (_, i) => `t${i}`);
  // Titles repeat now and then: pairing by title takes the first free one.
  const title = (i: number) => `T${r() < 0.2 ? 0 : i}`;
  const liveTeams = teamIds.map((id, i) => ({
    id,
    title: title(i),
    members: some(users, 0.4).map((userId) => ({ userId, email: null, role: 'member' })),
  }));
  const liveGrants = () =>
    r() < 0.3
      ? undefined
      : [
          ...some(teamIds, 0.3).map((team) => ({ team, role: pick(ROLES) })),
          ...some(users, 0.2).map((member) => ({ member, role: pick(ROLES) })),
        ];
  const collections = ['c0', 'c1', 'c2'].slice(0, Math.floor(r() * 4)).map((id, i) => ({
    id,
    title: `C${i}`,
    description: null,
    defaultLevel: pick(LEVELS),
    parent: i > 0 && r() < 0.5 ? 'c0' : null,
    access: liveGrants(),
  }));
  const spaces = ['s0', 's1', 's2'].map((id) => ({
    id,
    title: id.toUpperCase(),
    defaultLevel: pick(LEVELS),
    parent: collections.length > 0 && r() < 0.6 ? pick(collections).id : null,
    access: liveGrants(),
  }));
  const sites = ['w0', 'w1'].map((id, i) => ({ id, title: `W${i}`, access: liveGrants() }));
  const live = {
    id: 'org',
    self: 'u0',
    members: users.map((userId) => ({ userId, email: `${userId}@acme.com`, role: pick([...ROLES, null]) })),
    teams: liveTeams,
    collections,
    spaces,
    sites,
  } as unknown as LiveOrganization;
  const teamTitles = [...liveTeams.map((t) => t.title), 'New', 'Other'];
  const desiredGrants = () =>
    r() < 0.5
      ? undefined
      : [
          ...some(teamTitles, 0.3).map((team) => ({ team, role: pick(ROLES) })),
          ...some([...users, 'new@acme.com'], 0.2).map((u) => ({
            member: u.includes('@') ? u : `${u}@acme.com`,
            role: pick(ROLES),
          })),
        ];
  const desired = {
    id: 'org',
    policy: { prune: r() < 0.5, pruneMembers: r() < 0.3, maxDeletes: 100 },
    ...(r() < 0.7
      ? {
          teams: [
            ...some(liveTeams, 0.7).map((t) => ({
              ...(r() < 0.3 ? { id: t.id } : {}),
              title: r() < 0.2 ? 'Renamed' : t.title,
              ...(r() < 0.3 ? { previously: [t.title] } : {}),
              ...(r() < 0.4 ? { members: some(users, 0.5).map((u) => ({ user: `${u}@acme.com` })) } : {}),
            })),
            ...(r() < 0.5 ? [{ title: 'New', members: some(users, 0.5).map((user) => ({ user })) }] : []),
          ],
        }
      : {}),
    ...(r() < 0.5 ? { members: some(users, 0.5).map((user) => ({ user, role: pick(ROLES) })) } : {}),
    ...(r() < 0.6
      ? {
          collections: some(collections, 0.8).map((c) => ({
            title: c.title,
            ...(r() < 0.5 ? { defaultLevel: pick(LEVELS) } : {}),
            access: desiredGrants(),
          })),
        }
      : {}),
    spaces: some(spaces, 0.6).map((s) => ({
      id: s.id,
      ...(r() < 0.3 ? { defaultLevel: pick(LEVELS) } : {}),
      ...(r() < 0.3 ? { parent: r() < 0.5 ? null : 'C0' } : {}),
      access: desiredGrants(),
    })),
    ...(r() < 0.6
      ? {
          sites: [...some(sites, 0.8), { title: 'Fresh' }].map((s) => ({
            title: s.title,
            access: desiredGrants(),
          })),
        }
      : {}),
  } as unknown as DesiredOrganization;
  return { desired, live };
}

/** Everything withAccess and the audit read of two models. */
function answers({ before, after }: { before: AccessModel; after: AccessModel }) {
  const emails = emailsOf(before, after);
  const [b, a] = [effectiveAccess(before), effectiveAccess(after)];
  return {
    diff: diffAccess(b, a, emails),
    before: accessRows(b, emails),
    after: accessRows(a, emails),
    grants: [before.grants, after.grants],
  };
}

describe('grantedAccessModels', () => {
  it.each(Array.from({ length: 300 }, (_, seed) => seed))(
    'gives the same effective access as accessModels (seed %i)',
    (seed) => {
      const { desired, live } = randomOrgs(seed);
      expect(answers(grantedAccessModels(desired, live))).toEqual(answers(accessModels(desired, live)));
    },
  );

  it('keeps only the teams a grant names, and pairs none when no grant names a team', () => {
    const { desired, live } = randomOrgs(7);
    const full = accessModels(desired, live);
    const granted = grantedAccessModels(desired, live);
    const named = new Set(
      [...full.before.grants, ...full.after.grants].flatMap((g) =>
        'team' in g.subject ? [g.subject.team] : [],
      ),
    );
    expect(granted.before.teams).toEqual(full.before.teams.filter((t) => named.has(t.id)));
    expect(granted.after.teams).toEqual(full.after.teams.filter((t) => named.has(t.id)));
    const plain = {
      id: 'org',
      policy: { prune: true, maxDeletes: 10 },
      teams: [{ title: 'A' }, { title: 'B' }],
    } as unknown as DesiredOrganization;
    const teamsOnly = {
      id: 'org',
      teams: [{ id: 't1', title: 'A', members: [] }],
    } as unknown as LiveOrganization;
    expect(grantedAccessModels(plain, teamsOnly)).toEqual({
      before: { ...liveModelOf(teamsOnly), teams: [] },
      after: { members: [], objects: [], grants: [], teams: [] },
    });
  });

  it('pairs desired teams by pinned id, then title, then an earlier title', () => {
    const live = {
      id: 'org',
      teams: [
        { id: 't1', title: 'Docs', members: [] },
        { id: 't2', title: 'Docs', members: [] },
        { id: 't3', title: 'Old', members: [] },
      ],
    } as unknown as LiveOrganization;
    const desired = {
      id: 'org',
      policy: { prune: false, maxDeletes: 10 },
      teams: [
        { title: 'Docs' },
        { title: 'Renamed', previously: ['Gone', 'Old'] },
        { id: 't1', title: 'Pinned' },
        { title: 'Docs' },
        { title: 'Fresh', previously: ['Docs'] },
      ],
    } as unknown as DesiredOrganization;
    expect(accessModels(desired, live).after.teams.map((t) => `${t.title}=${t.id}`)).toEqual([
      'Docs=t2',
      'Renamed=t3',
      'Pinned=t1',
      'Docs=new:team:Docs',
      'Fresh=new:team:Fresh',
    ]);
  });
});

const liveModelOf = (live: LiveOrganization) => accessModels({ id: 'org', policy: {} } as never, live).before;
