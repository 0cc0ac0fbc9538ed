import { badRequest } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuOrganization } from '../state.js';
import { findById, findOrg, findSpaceAnywhere, now } from '../store.js';
import { asBody, optBoolean, optEnum, optString, optStringArray, roles } from '../validate.js';
import type { RouteDeps } from './context.js';

const URL_PATTERN = /^https?:\/\/[^\s]+$/;

/** Organizations, members, collections and spaces: what the API cannot create but docsync references. */
export function registerOrganizations(deps: RouteDeps): void {
  registerOrganizationRoutes(deps);
  registerMembers(deps);
  registerCollectionReads(deps);
  registerSpaces(deps);
}

function registerOrganizationRoutes({ state, shapes, router }: RouteDeps): void {
  router.on('GET', '/orgs', ({ query }) => ({
    status: 200,
    body: paginate(state().organizations, query, (o) => shapes.organization(o)),
  }));
  router.on('GET', '/orgs/:orgId', ({ params }) => ({
    status: 200,
    body: shapes.organization(findOrg(state(), params.orgId!)),
  }));
  router.on('PATCH', '/orgs/:orgId', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    patchOrganization(org, asBody(body));
    return { status: 200, body: shapes.organization(org) };
  });
}

function patchOrganization(org: EmuOrganization, b: Record<string, unknown>): void {
  const title = optString(b, 'title', { min: 2, max: 255 });
  const hostname = optString(b, 'hostname', { min: 3, max: 32 });
  const emailDomains = optStringArray(b, 'emailDomains');
  const defaultRole = optEnum(b, 'defaultRole', roles, { nullable: true });
  const sso = optBoolean(b, 'sso');
  const ai = optBoolean(b, 'ai');
  const inviteLinks = optBoolean(b, 'inviteLinks');
  let defaultContent: string | null | undefined;
  if (b['defaultContent'] !== undefined) {
    if (b['defaultContent'] === null) defaultContent = null;
    else {
      const dc = asBody(b['defaultContent'], true);
      if (dc['type'] !== 'site') throw badRequest('defaultContent.type: must be site');
      const site = optString(dc, 'site');
      if (!site || !org.sites.some((x) => x.id === site))
        throw badRequest('defaultContent.site: not a site of this organization');
      defaultContent = site;
    }
  }
  const logo = optString(b, 'logo', { max: 2048, nullable: true, pattern: URL_PATTERN });
  if (defaultContent !== undefined) org.defaultContent = defaultContent;
  if (title !== undefined && title !== null) org.title = title;
  if (hostname !== undefined) org.hostname = hostname;
  if (emailDomains !== undefined) org.emailDomains = emailDomains;
  if (defaultRole !== undefined) org.defaultRole = defaultRole;
  if (sso !== undefined) org.sso = sso;
  if (ai !== undefined) org.ai = ai;
  if (inviteLinks !== undefined) org.inviteLinks = inviteLinks;
  if (logo !== undefined) org.logo = logo;
}

function registerMembers({ state, shapes, router }: RouteDeps): void {
  router.on('GET', '/orgs/:orgId/members', ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    let members = [...org.members];
    const role = query.get('role');
    if (role) members = members.filter((m) => m.role === role);
    const search = query.get('search')?.toLowerCase();
    if (search)
      members = members.filter(
        (m) =>
          m.user.displayName.toLowerCase().includes(search) || m.user.email.toLowerCase().includes(search),
      );
    const order = query.get('order') ?? 'desc';
    if (order !== 'asc' && order !== 'desc') throw badRequest('order: must be one of asc, desc');
    members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.user.id.localeCompare(b.user.id));
    if (order === 'desc') members.reverse();
    return {
      status: 200,
      body: paginate(members, query, (m) => shapes.member(org, m)),
    };
  });
  const findMember = (orgId: string, userId: string) => {
    const org = findOrg(state(), orgId);
    const member = org.members.find((m) => m.user.id === userId);
    if (!member) throw badRequest(`userId: ${userId} is not a member`);
    return { org, member };
  };
  router.on('GET', '/orgs/:orgId/members/:userId', ({ params }) => {
    const { org, member } = findMember(params.orgId!, params.userId!);
    return { status: 200, body: shapes.member(org, member) };
  });
  router.on('PATCH', '/orgs/:orgId/members/:userId', ({ params, body }) => {
    const { org, member } = findMember(params.orgId!, params.userId!);
    const role = optEnum(asBody(body, true), 'role', roles, { nullable: true, required: true });
    member.role = role ?? null;
    return { status: 200, body: shapes.member(org, member) };
  });
}

function registerCollectionReads({ state, shapes, router }: RouteDeps): void {
  router.on('GET', '/orgs/:orgId/collections', ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    const nested = query.get('nested') !== 'false';
    const list = nested ? org.collections : org.collections.filter((c) => c.parent === null);
    return {
      status: 200,
      body: paginate(list, query, (c) => shapes.collection(org, c)),
    };
  });
  const findCollection = (id: string) => {
    for (const org of state().organizations) {
      const c = org.collections.find((x) => x.id === id);
      if (c) return { org, c };
    }
    return { org: undefined, c: findById([], id, 'collection') };
  };
  router.on('GET', '/collections/:collectionId', ({ params }) => {
    const { org, c } = findCollection(params.collectionId!);
    return { status: 200, body: shapes.collection(org!, c) };
  });
  router.on('GET', '/collections/:collectionId/spaces', ({ params, query }) => {
    const { org, c } = findCollection(params.collectionId!);
    const spaces = org!.spaces.filter((s) => s.parent === c.id).map((s) => shapes.space(org!, s));
    return { status: 200, body: paginate(spaces, query) };
  });
}

function registerSpaces({ state, shapes, router, flavor }: RouteDeps): void {
  const levels = flavor === 'current' ? ([...roles, 'inherit'] as const) : roles;
  router.on('GET', '/spaces/:spaceId', ({ params }) => {
    const { org, space } = findSpaceAnywhere(state(), params.spaceId!);
    return { status: 200, body: shapes.space(org, space) };
  });
  router.on('PATCH', '/spaces/:spaceId', ({ params, body }) => {
    const { org, space } = findSpaceAnywhere(state(), params.spaceId!);
    const b = asBody(body);
    const title = optString(b, 'title', { max: 50 });
    const emoji = optString(b, 'emoji', { max: 50 });
    const editMode = optEnum(b, 'editMode', ['live', 'locked'] as const);
    const defaultLevel = optEnum(b, 'defaultLevel', levels, { nullable: true });
    if (title) space.title = title;
    if (emoji) space.emoji = emoji;
    if (editMode) space.editMode = editMode;
    if (defaultLevel !== undefined) space.defaultLevel = defaultLevel;
    space.updatedAt = now();
    return { status: 200, body: shapes.space(org, space) };
  });
}
