import { badRequest, notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuOrganization, EmuTeam } from '../state.js';
import { findKeyed } from '../memo.js';
import { findById, findOrg, newId, now } from '../store.js';
import { asBody, optEnum, optStringArray, reqString } from '../validate.js';
import type { RouteDeps } from './context.js';

const teamRoles = ['owner', 'member'] as const;

/** Resolve a user given by id or e-mail to an organization member's user id. */
function resolveUser(org: EmuOrganization, ref: string, field: string): string {
  const lower = ref.toLowerCase();
  const member = org.members.find((m) => m.user.id === ref || m.user.email.toLowerCase() === lower);
  if (!member) throw badRequest(`${field}: ${ref} is not a member of the organization`);
  return member.user.id;
}

/**
 * How many teams each user (or each of `only`) is in: one pass over the teams. A team counts once
 * per member even if it lists the member twice (a seed may).
 */
function teamsPerUser(teams: readonly EmuTeam[], only?: readonly string[]): Map<string, number> {
  const counts = new Map(only?.map((u) => [u, { n: 0, last: null as EmuTeam | null }]));
  for (const t of teams)
    for (const tm of t.members) {
      let c = counts.get(tm.userId);
      if (!c) {
        if (only) continue;
        counts.set(tm.userId, (c = { n: 0, last: null }));
      }
      if (c.last !== t) {
        c.n += 1;
        c.last = t;
      }
    }
  return new Map([...counts].map(([u, c]) => [u, c.n]));
}

const base = '/orgs/:orgId/teams';

function team(deps: RouteDeps, orgId: string, teamId: string): { org: EmuOrganization; team: EmuTeam } {
  const org = findOrg(deps.state(), orgId);
  return { org, team: findById(org.teams, teamId, 'team', deps.memo) };
}

export function registerTeams(deps: RouteDeps): void {
  registerTeamRoutes(deps);
  registerTeamMembers(deps);
}

function registerTeamRoutes(deps: RouteDeps): void {
  const { state, shapes, router } = deps;
  router.on('GET', base, ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    let teams = org.teams;
    const title = query.get('title')?.toLowerCase();
    if (title) teams = teams.filter((t) => t.title.toLowerCase().includes(title));
    const owner = query.get('owner');
    if (owner) teams = teams.filter((t) => t.members.some((m) => m.userId === owner && m.role === 'owner'));
    return { status: 200, body: paginate(teams, query, shapes.team) };
  });
  router.on('PUT', base, ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const b = asBody(body, true);
    const title = reqString(b, 'title', { min: 1, max: 64 });
    const members = optStringArray(b, 'members') ?? [];
    const created: EmuTeam = {
      id: newId('team'),
      title,
      createdAt: now(),
      members: [...new Set(members.map((m) => resolveUser(org, m, 'members')))].map((userId) => ({
        userId,
        role: 'member' as const,
      })),
    };
    org.teams.push(created);
    return { status: 201, body: shapes.team(created) };
  });
  router.on('GET', `${base}/:teamId`, ({ params }) => ({
    status: 200,
    body: shapes.team(team(deps, params.orgId!, params.teamId!).team),
  }));
  router.on('PATCH', `${base}/:teamId`, ({ params, body }) => {
    const t = team(deps, params.orgId!, params.teamId!).team;
    t.title = reqString(asBody(body, true), 'title', { min: 1, max: 64 });
    return { status: 200, body: shapes.team(t) };
  });
  router.on('DELETE', `${base}/:teamId`, ({ params }) => {
    const { org, team: t } = team(deps, params.orgId!, params.teamId!);
    org.teams.splice(org.teams.indexOf(t), 1);
    return { status: 204 };
  });
}

function registerTeamMembers(deps: RouteDeps): void {
  const { shapes, router, memo } = deps;
  router.on('GET', `${base}/:teamId/members`, ({ params, query }) => {
    const { org, team: t } = team(deps, params.orgId!, params.teamId!);
    // Each member's number of teams: every user's remembered between writes, else this team's
    // members' counted in one pass over the teams.
    const counts = memo?.active
      ? memo.of(org.teams, 'teamsPerUser', () => teamsPerUser(org.teams))
      : teamsPerUser(
          org.teams,
          t.members.map((tm) => tm.userId),
        );
    const items = t.members.map((tm) => {
      const member = findKeyed(memo, org.members, 'user.id', (m) => m.user.id, tm.userId)!;
      return {
        organization: shapes.member(org, member, counts.get(tm.userId) ?? 0),
        team: { role: tm.role },
        permissions: { view: true },
      };
    });
    return { status: 200, body: paginate(items, query) };
  });
  router.on('PUT', `${base}/:teamId/members`, ({ params, body }) => {
    const { org, team: t } = team(deps, params.orgId!, params.teamId!);
    changeMembers(org, t, asBody(body, true));
    return { status: 204 };
  });
  router.on('PUT', `${base}/:teamId/members/:userId`, ({ params, body }) => {
    const { org, team: t } = team(deps, params.orgId!, params.teamId!);
    const userId = resolveUser(org, params.userId!, 'userId');
    const role = optEnum(asBody(body), 'role', teamRoles) ?? undefined;
    const existing = t.members.find((m) => m.userId === userId);
    if (existing) existing.role = role ?? existing.role;
    else t.members.push({ userId, role: role ?? 'member' });
    return { status: 204 };
  });
  router.on('DELETE', `${base}/:teamId/members/:userId`, ({ params }) => {
    const { org, team: t } = team(deps, params.orgId!, params.teamId!);
    const userId = resolveUser(org, params.userId!, 'userId');
    const before = t.members.length;
    t.members = t.members.filter((m) => m.userId !== userId);
    if (t.members.length === before) throw notFound(`user ${userId} is not a member of team ${t.id}`);
    return { status: 204 };
  });
}

/** `PUT …/members`: add, remove, and set members' roles (`memberships`), in that order. */
function changeMembers(org: EmuOrganization, t: EmuTeam, b: Record<string, unknown>): void {
  const add = (optStringArray(b, 'add') ?? []).map((u) => resolveUser(org, u, 'add'));
  const remove = new Set((optStringArray(b, 'remove') ?? []).map((u) => resolveUser(org, u, 'remove')));
  const membershipsRaw = b['memberships'];
  const memberships = new Map<string, 'owner' | 'member'>();
  if (membershipsRaw !== undefined) {
    if (typeof membershipsRaw !== 'object' || membershipsRaw === null || Array.isArray(membershipsRaw))
      throw badRequest('memberships: must be an object');
    for (const [user, value] of Object.entries(membershipsRaw)) {
      const role = optEnum(asBody(value, true), 'role', teamRoles, { required: true });
      memberships.set(resolveUser(org, user, `memberships.${user}`), role as 'owner' | 'member');
    }
  }
  for (const userId of add) {
    if (remove.has(userId) || t.members.some((m) => m.userId === userId)) continue;
    t.members.push({ userId, role: 'member' });
  }
  t.members = t.members.filter((m) => !remove.has(m.userId));
  for (const m of t.members) {
    const role = memberships.get(m.userId);
    if (role) m.role = role;
  }
}
