import { badRequest, notFound } from '../errors.js';
import type { EmuCollection, EmuOrganization } from '../state.js';
import { findById, findOrg, findSpaceAnywhere, newId } from '../store.js';
import { asBody, optEnum, optString, roles } from '../validate.js';
import type { RouteDeps } from './context.js';
import { registerOpenApiSpecs } from './openapi-specs.js';
import { registerSaml } from './saml.js';

/**
 * Members removal, the token's user, collections, space moves, OpenAPI specs, SAML providers and
 * translation settings: the kinds beyond the card (issue 11).
 */
export function registerAdmin(deps: RouteDeps & { flavor: 'seed' | 'current' }): void {
  registerUser(deps);
  registerMemberRemoval(deps);
  registerCollections(deps);
  registerOpenApiSpecs(deps);
  registerSaml(deps);
}

function registerUser({ state, shapes, router }: RouteDeps): void {
  router.on('GET', '/user', () => {
    const id =
      state().tokenUser ?? state().organizations[0]?.members.find((m) => m.role === 'admin')?.user.id;
    for (const org of state().organizations) {
      const m = org.members.find((x) => x.user.id === id);
      if (m) return { status: 200, body: shapes.user(m) };
    }
    throw notFound('no user for this token');
  });
}

function registerMemberRemoval({ state, router, flavor }: RouteDeps): void {
  router.on('DELETE', '/orgs/:orgId/members/:userId', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    const i = org.members.findIndex((m) => m.user.id === params.userId);
    if (i === -1) {
      if (flavor === 'current') return { status: 204 };
      throw notFound(`member ${params.userId} not found`);
    }
    org.members.splice(i, 1);
    for (const t of org.teams) t.members = t.members.filter((m) => m.userId !== params.userId);
    return { status: flavor === 'current' ? 205 : 204 };
  });
}

/** Collections, and moving a collection or a space into one. */
function registerCollections({ state, shapes, router, flavor }: RouteDeps): void {
  const levels = flavor === 'current' ? ([...roles, 'inherit'] as const) : roles;
  const collection = (id: string): { org: EmuOrganization; c: EmuCollection } => {
    for (const org of state().organizations) {
      const c = org.collections.find((x) => x.id === id);
      if (c) return { org, c };
    }
    throw notFound(`collection ${id} not found`);
  };
  const checkParent = (org: EmuOrganization, parent: string | null | undefined, self?: string) => {
    if (parent === null || parent === undefined) return;
    findById(org.collections, parent, 'parent collection');
    for (let p: string | null = parent; p; p = org.collections.find((c) => c.id === p)?.parent ?? null)
      if (p === self) throw badRequest('parent: a collection cannot be nested inside itself');
  };
  router.on('POST', '/orgs/:orgId/collections', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const b = asBody(body);
    const title = optString(b, 'title', { max: 50 }) ?? 'Untitled';
    const parent = optString(b, 'parent') ?? null;
    checkParent(org, parent);
    const c: EmuCollection = { id: newId('col'), title, description: null, parent, defaultLevel: null };
    org.collections.push(c);
    return { status: 201, body: shapes.collection(org, c) };
  });
  router.on('PATCH', '/collections/:collectionId', ({ params, body }) => {
    const { org, c } = collection(params.collectionId!);
    const b = asBody(body);
    const title = optString(b, 'title', { max: 50 });
    const description = optString(b, 'description', { max: 100, nullable: true });
    const defaultLevel = optEnum(b, 'defaultLevel', levels, { nullable: true });
    if (title) c.title = title;
    if (description !== undefined) c.description = description;
    if (defaultLevel !== undefined) c.defaultLevel = defaultLevel;
    return { status: 200, body: shapes.collection(org, c) };
  });
  router.on('DELETE', '/collections/:collectionId', ({ params }) => {
    const { org, c } = collection(params.collectionId!);
    org.collections.splice(org.collections.indexOf(c), 1);
    for (const other of org.collections) if (other.parent === c.id) other.parent = c.parent;
    for (const s of org.spaces) if (s.parent === c.id) s.parent = c.parent;
    return { status: 205 };
  });
  router.on('POST', '/collections/:collectionId/move', ({ params, body }) => {
    const { org, c } = collection(params.collectionId!);
    const b = asBody(body, true);
    if (!('parent' in b) && !('position' in b)) throw badRequest('body: parent or position is required');
    const parent = optString(b, 'parent', { nullable: true });
    if (parent !== undefined) {
      checkParent(org, parent, c.id);
      c.parent = parent;
    }
    return { status: 200, body: shapes.collection(org, c) };
  });
  router.on('POST', '/spaces/:spaceId/move', ({ params, body }) => {
    const { org, space } = findSpaceAnywhere(state(), params.spaceId!);
    const b = asBody(body, true);
    if (!('parent' in b) && !('position' in b)) throw badRequest('body: parent or position is required');
    const parent = optString(b, 'parent', { nullable: true });
    if (parent !== undefined) {
      checkParent(org, parent);
      space.parent = parent;
    }
    return { status: 200, body: shapes.space(org, space) };
  });
}
