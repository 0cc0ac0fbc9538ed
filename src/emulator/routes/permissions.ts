import { effectiveAccess, roleOf, type AccessModel, type Role } from '../../access/effective.js';
import { memberRoles } from '../../model/kinds.js';
import { badRequest, notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuGrant, EmuOrganization } from '../state.js';
import { findOrg, findSite, findSpaceAnywhere } from '../store.js';
import { asBody, optEnum } from '../validate.js';
import type { RouteDeps } from './context.js';

/**
 * Grants of today's API (issue 29): `…/permissions` of spaces, collections and sites. POST sets one
 * role for the teams and users it lists; the team and user lists answer the grants; PATCH and
 * DELETE change or revoke one. The aggregate answers every member's effective role, computed by
 * src/access/effective.ts (the computation docsync's plan uses): an organization admin
 * administers everything; a default level gives every member its role (`inherit`: the parent
 * collection's, at the top the member's own organization role; none: nothing); grants on the
 * object and the collections above it give their team's members or their user a role; the
 * strongest wins. A site has no default level: its members have their organization role.
 *
 * Not a declared kind part (src/kinds/emulated.ts): one POST sets many grants, and the aggregate
 * is computed (decision 0034).
 */

type Holder = { org: EmuOrganization; id: string; access: EmuGrant[]; set: (a: EmuGrant[]) => void };

const roles = memberRoles as readonly string[];

/** A seed's grants (`access:` of a space, collection or site): a team by title or id, a member by e-mail or id. */
export function grantsFromSeed(org: EmuOrganization, entries: unknown): EmuGrant[] | undefined {
  if (!Array.isArray(entries)) return undefined;
  return entries.flatMap((e: Record<string, unknown>): EmuGrant[] => {
    const role = String(e['role']);
    if (typeof e['team'] === 'string') {
      const ref = e['team'];
      const team = org.teams.find((t) => t.id === ref || t.title === ref);
      return team ? [{ team: team.id, role }] : [];
    }
    const ref = String(e['member'] ?? e['user'] ?? '').toLowerCase();
    const m = org.members.find((x) => x.user.id === ref || x.user.email.toLowerCase() === ref);
    return m ? [{ user: m.user.id, role }] : [];
  });
}

/** The emulator's organization as the effective-access computation reads it. */
function accessModel(org: EmuOrganization): AccessModel {
  const grants: AccessModel['grants'] = [];
  const add = (object: string, access: EmuGrant[] | undefined) => {
    for (const g of access ?? [])
      grants.push({
        object,
        subject: 'team' in g ? { team: g.team } : { user: g.user },
        role: g.role as Role,
      });
  };
  const level = (l: string | null) => (l === null ? null : (l as Role | 'inherit'));
  for (const c of org.collections) add(c.id, c.access);
  for (const s of org.spaces) add(s.id, s.access);
  for (const s of org.sites) add(s.id, s.access);
  return {
    members: org.members.map((m) => ({ id: m.user.id, email: m.user.email, role: m.role as Role | null })),
    teams: org.teams.map((t) => ({ id: t.id, title: t.title, members: t.members.map((m) => m.userId) })),
    objects: [
      ...org.collections.map((c) => ({
        noun: 'collection',
        id: c.id,
        title: c.title,
        parent: c.parent,
        defaultLevel: level(c.defaultLevel),
      })),
      ...org.spaces.map((s) => ({
        noun: 'space',
        id: s.id,
        title: s.title,
        parent: s.parent,
        defaultLevel: level(s.defaultLevel),
      })),
      ...org.sites.map((s) => ({ noun: 'site', id: s.id, title: s.title, defaultLevel: 'inherit' as const })),
    ],
    grants,
  };
}

export function registerPermissions({ state, shapes, router }: RouteDeps): void {
  const space = (id: string): Holder => {
    const { org, space: s } = findSpaceAnywhere(state(), id);
    return { org, id, access: s.access ?? [], set: (a) => (s.access = a) };
  };
  const collection = (id: string): Holder => {
    for (const org of state().organizations) {
      const c = org.collections.find((x) => x.id === id);
      if (c) return { org, id, access: c.access ?? [], set: (a) => (c.access = a) };
    }
    throw notFound(`collection ${id} not found`);
  };
  const site = (orgId: string, id: string): Holder => {
    const org = findOrg(state(), orgId);
    const s = findSite(org, id);
    return { org, id, access: s.access ?? [], set: (a) => (s.access = a) };
  };
  const families: Family[] = [
    { base: '/spaces/:spaceId/permissions', holder: (p) => space(p['spaceId']!), site: false },
    {
      base: '/collections/:collectionId/permissions',
      holder: (p) => collection(p['collectionId']!),
      site: false,
    },
    {
      base: '/orgs/:orgId/sites/:siteId/permissions',
      holder: (p) => site(p['orgId']!, p['siteId']!),
      site: true,
    },
  ];
  for (const f of families) registerFamily(shapes, router, f);
}

/** The grants of one kind of object (spaces, collections or sites) and how to find its holder. */
type Family = { base: string; holder: (p: Record<string, string | undefined>) => Holder; site: boolean };

const memberOf = (org: EmuOrganization, id: string) => org.members.find((m) => m.user.id === id);

function registerFamily(shapes: RouteDeps['shapes'], router: RouteDeps['router'], f: Family): void {
  router.on('POST', f.base, ({ params, body }) => {
    const h = f.holder(params);
    grant(h, asBody(body, true));
    return { status: 204 };
  });
  router.on('GET', `${f.base}/teams`, ({ params, query }) => {
    const h = f.holder(params);
    const items = h.access.flatMap((g) => {
      const team = 'team' in g ? h.org.teams.find((t) => t.id === g.team) : undefined;
      return team ? [{ permission: g.role, team: shapes.team(team) }] : [];
    });
    return { status: 200, body: paginate(items, query) };
  });
  router.on('GET', `${f.base}/users`, ({ params, query }) => {
    const h = f.holder(params);
    const items = h.access.flatMap((g) => {
      const m = 'user' in g ? memberOf(h.org, g.user) : undefined;
      return m ? [{ permission: g.role, user: shapes.user(m) }] : [];
    });
    return { status: 200, body: paginate(items, query) };
  });
  registerGrantEdits(router, f);
  registerAggregate(shapes, router, f);
}

/** `POST …/permissions`: give teams and users a role (replacing the grants they had). */
function grant(h: Holder, b: Record<string, unknown>): void {
  const role = optEnum(b, 'role', roles, { required: true, nullable: true });
  // A guest (null) role is not served: docsync never sends one.
  if (role === null) throw badRequest('role: guest grants are not served by the emulator');
  const list = (field: 'teams' | 'users'): string[] => {
    const v = b[field];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string'))
      throw badRequest(`${field}: must be a non-empty list of ids`);
    return v as string[];
  };
  const teams = list('teams');
  const users = list('users');
  if (teams.length === 0 && users.length === 0) throw badRequest('teams or users: one is required');
  for (const t of teams)
    if (!h.org.teams.some((x) => x.id === t)) throw badRequest(`teams: team ${t} not found`);
  for (const u of users)
    if (!memberOf(h.org, u)) throw badRequest(`users: ${u} is not a member of the organization`);
  const access = h.access.filter((g) => !('team' in g ? teams.includes(g.team) : users.includes(g.user)));
  access.push(
    ...teams.map((team) => ({ team, role: role! })),
    ...users.map((user) => ({ user, role: role! })),
  );
  h.set(access);
}

/** Change or remove one team's or user's grant. */
function registerGrantEdits(router: RouteDeps['router'], f: Family): void {
  for (const [path, key] of [
    ['teams/:teamId', 'team'],
    ['users/:userId', 'user'],
  ] as const) {
    const param = key === 'team' ? 'teamId' : 'userId';
    const find = (h: Holder, id: string) =>
      h.access.find((g) => key in g && (g as Record<string, string>)[key] === id);
    router.on('PATCH', `${f.base}/${path}`, ({ params, body }) => {
      const h = f.holder(params);
      const role = optEnum(asBody(body, true), 'role', roles, { required: true, nullable: !f.site });
      if (role === null) throw badRequest('role: guest grants are not served by the emulator');
      const g = find(h, params[param]!);
      if (!g) throw notFound(`${key} ${params[param]} has no grant here`);
      g.role = role!;
      return { status: 204 };
    });
    router.on('DELETE', `${f.base}/${path}`, ({ params }) => {
      const h = f.holder(params);
      const g = find(h, params[param]!);
      // Today's API answers 204 for a grant that is not there.
      if (g) h.set(h.access.filter((x) => x !== g));
      return { status: 204 };
    });
  }
}

/** Who has which role on the object, inherited grants included. */
function registerAggregate(shapes: RouteDeps['shapes'], router: RouteDeps['router'], f: Family): void {
  router.on('GET', `${f.base}/aggregate`, ({ params, query }) => {
    const h = f.holder(params);
    const matrix = effectiveAccess(accessModel(h.org));
    const row = matrix.rows.get(h.id)!;
    const filter = query.get('role');
    const items = h.org.members.flatMap((m) => {
      const access = roleOf(row, m.user.id, matrix.orgRoles);
      if (!access || (filter && access.role !== filter)) return [];
      const user = shapes.user(m);
      return [
        f.site
          ? {
              permission: access.role,
              user,
              origin: { type: 'organization', organization: h.org.id },
              disabled: m.disabled,
            }
          : { permission: access.role, user },
      ];
    });
    return { status: 200, body: paginate(items, query) };
  });
}
