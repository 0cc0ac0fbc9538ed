import { badRequest, conflict, notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuCollection, EmuOrganization } from '../state.js';
import { findById, findOrg, findSpaceAnywhere, newId, now } from '../store.js';
import { asBody, optEnum, optString, reqString, roles } from '../validate.js';
import type { RouteDeps } from './context.js';

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Today's API allows upper case letters in OpenAPI slugs. */
const currentSlugPattern = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

/**
 * Members removal, the token's user, collections, space moves, OpenAPI specs, SAML providers and
 * translation settings: the kinds beyond the card (issue 11).
 */
export function registerAdmin(deps: RouteDeps & { flavor: 'seed' | 'current' }): void {
  const { state, shapes, router, flavor } = deps;
  const levels = flavor === 'current' ? ([...roles, 'inherit'] as const) : roles;
  const slugs = flavor === 'current' ? currentSlugPattern : slugPattern;
  /** `urls.location`: an absolute URI in today's API, a path as api.md shows it in `seed`. */
  const location = (path: string) => (flavor === 'current' ? `${deps.baseUrl()}/v1${path}` : `/v1${path}`);

  router.on('GET', '/user', () => {
    const id =
      state().tokenUser ?? state().organizations[0]?.members.find((m) => m.role === 'admin')?.user.id;
    for (const org of state().organizations) {
      const m = org.members.find((x) => x.user.id === id);
      if (m) return { status: 200, body: shapes.user(m) };
    }
    throw notFound('no user for this token');
  });

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

  // Collections
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

  // OpenAPI specs
  const spec = (org: EmuOrganization) => (org.openapi ??= []);
  const specShape = (org: EmuOrganization, s: NonNullable<EmuOrganization['openapi']>[number]) => ({
    object: 'openapi-spec',
    id: s.id,
    slug: s.slug,
    ...(s.source !== null ? { sourceURL: s.source } : {}),
    processingState: 'pending',
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    lastProcessedErrorCount: 0,
    ...(flavor === 'current' ? { visibility: s.visibility ?? 'private' } : {}),
    permissions: { view: true, edit: true },
    urls: {
      location: location(`/orgs/${org.id}/openapi/${s.slug}`),
      app: `https://app.emulator.local/o/${org.id}/openapi/${s.slug}`,
    },
  });
  /** The source: a URL, or (today's API) the document's text. */
  const sourceOf = (b: Record<string, unknown>): { source: string | null; text?: string } => {
    const source = asBody(b['source'], true);
    if (flavor === 'current' && source['url'] === undefined && source['text'] !== undefined)
      return { source: null, text: reqString(source, 'text', { min: 1 }) };
    return { source: reqString(source, 'url', { max: 2048, pattern: /^https?:\/\/\S+$/ }) };
  };
  router.on('GET', '/orgs/:orgId/openapi', ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    return {
      status: 200,
      body: paginate(
        spec(org).map((s) => specShape(org, s)),
        query,
      ),
    };
  });
  router.on('POST', '/orgs/:orgId/openapi', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const b = asBody(body, true);
    const slug = reqString(b, 'slug', { min: 1, max: 100, pattern: slugs });
    const from = sourceOf(b);
    if (spec(org).some((s) => s.slug === slug)) throw conflict(`slug: an OpenAPI spec ${slug} exists`);
    const s = { id: newId('oas'), slug, ...from, createdAt: now(), updatedAt: now() };
    spec(org).push(s);
    return { status: 201, body: specShape(org, s) };
  });
  const findSpec = (org: EmuOrganization, slug: string) => {
    const s = spec(org).find((x) => x.slug === slug);
    if (!s) throw notFound(`OpenAPI spec ${slug} not found`);
    return s;
  };
  router.on('GET', '/orgs/:orgId/openapi/:slug', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    return { status: 200, body: specShape(org, findSpec(org, params.slug!)) };
  });
  router.on('PUT', '/orgs/:orgId/openapi/:slug', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const from = sourceOf(asBody(body, true));
    const existing = spec(org).find((x) => x.slug === params.slug);
    if (existing) {
      existing.source = from.source;
      if (from.text !== undefined) existing.text = from.text;
      else delete existing.text;
      existing.updatedAt = now();
      return { status: 200, body: specShape(org, existing) };
    }
    if (!slugs.test(params.slug!)) throw badRequest('slug: invalid');
    const s = { id: newId('oas'), slug: params.slug!, ...from, createdAt: now(), updatedAt: now() };
    spec(org).push(s);
    return { status: flavor === 'current' ? 201 : 200, body: specShape(org, s) };
  });
  if (flavor === 'current')
    // The raw text of a spec made from text (a spec fetched from a URL: 404 here, as the document allows).
    router.on('GET', '/orgs/:orgId/openapi/:slug/versions/latest/content/raw', ({ params }) => {
      const s = findSpec(findOrg(state(), params.orgId!), params.slug!);
      if (s.text === undefined) throw notFound(`OpenAPI spec ${s.slug} has no raw source`);
      const format = s.text.trimStart().startsWith('{') ? 'json' : 'yaml';
      return { status: 200, body: { text: s.text, format } };
    });
  if (flavor === 'current')
    router.on('PATCH', '/orgs/:orgId/openapi/:slug', ({ params, body }) => {
      const org = findOrg(state(), params.orgId!);
      const visibility = optEnum(asBody(body, true), 'visibility', ['private', 'public'] as const, {
        required: true,
      })!;
      const s = findSpec(org, params.slug!);
      s.visibility = visibility;
      s.updatedAt = now();
      return { status: 200, body: specShape(org, s) };
    });
  router.on('DELETE', '/orgs/:orgId/openapi/:slug', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    const i = spec(org).findIndex((x) => x.slug === params.slug);
    if (i === -1) {
      if (flavor === 'current') return { status: 204 };
      throw notFound(`OpenAPI spec ${params.slug} not found`);
    }
    spec(org).splice(i, 1);
    return { status: 205 };
  });

  // SAML providers
  const saml = (org: EmuOrganization) => (org.saml ??= []);
  const samlShape = (org: EmuOrganization, p: NonNullable<EmuOrganization['saml']>[number]) => {
    const team = p.defaultTeam ? org.teams.find((t) => t.id === p.defaultTeam) : undefined;
    return {
      object: 'saml-provider',
      id: p.id,
      label: p.label,
      // The official document requires a URI even before one is configured.
      ssoURL: p.ssoURL ?? (flavor === 'current' ? 'about:blank' : ''),
      entityID: p.entityID ?? '',
      certificate: p.certificate ?? '',
      ...(team ? { defaultTeam: shapes.team(team) } : {}),
      defaultRole: p.defaultRole,
      createdAt: p.createdAt,
      status: 'active',
      service: {
        acsURL: `https://app.emulator.local/saml/${p.id}/acs`,
        startURL: `https://app.emulator.local/saml/${p.id}`,
        entityID: `emulator:${p.id}`,
      },
      urls: { location: location(`/orgs/${org.id}/saml/${p.id}`) },
    };
  };
  const samlFields = (org: EmuOrganization, b: Record<string, unknown>, create: boolean) => {
    const label = create
      ? reqString(b, 'label', { min: 1, max: 30 })
      : optString(b, 'label', { min: 1, max: 30 });
    const entityID = optString(b, 'entityID', { max: 1024 });
    const certificate = optString(b, 'certificate', { max: 10000 });
    const ssoURL = optString(b, 'ssoURL', { max: 2048, pattern: /^https?:\/\/\S+$/ });
    const defaultTeam = optString(b, 'defaultTeam');
    if (defaultTeam) findById(org.teams, defaultTeam, 'team');
    const defaultRole = optEnum(b, 'defaultRole', roles, { nullable: true });
    return { label, entityID, certificate, ssoURL, defaultTeam, defaultRole };
  };
  router.on('GET', '/orgs/:orgId/saml', ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    return {
      status: 200,
      body: paginate(
        saml(org).map((p) => samlShape(org, p)),
        query,
      ),
    };
  });
  router.on('POST', '/orgs/:orgId/saml', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const f = samlFields(org, asBody(body, true), true);
    const p = {
      id: newId('saml'),
      label: f.label!,
      entityID: f.entityID ?? null,
      certificate: f.certificate ?? null,
      ssoURL: f.ssoURL ?? null,
      defaultTeam: f.defaultTeam ?? null,
      defaultRole: f.defaultRole ?? null,
      createdAt: now(),
    };
    saml(org).push(p);
    return { status: 201, body: samlShape(org, p) };
  });
  router.on('GET', '/orgs/:orgId/saml/:id', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    return { status: 200, body: samlShape(org, findById(saml(org), params.id!, 'SAML provider')) };
  });
  router.on('PATCH', '/orgs/:orgId/saml/:id', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const p = findById(saml(org), params.id!, 'SAML provider');
    const f = samlFields(org, asBody(body), false);
    if (f.label) p.label = f.label;
    if (f.entityID !== undefined) p.entityID = f.entityID;
    if (f.certificate !== undefined) p.certificate = f.certificate;
    if (f.ssoURL !== undefined) p.ssoURL = f.ssoURL;
    if (f.defaultTeam !== undefined) p.defaultTeam = f.defaultTeam;
    if (f.defaultRole !== undefined) p.defaultRole = f.defaultRole;
    return { status: 200, body: samlShape(org, p) };
  });
  router.on('DELETE', '/orgs/:orgId/saml/:id', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    const i = saml(org).findIndex((x) => x.id === params.id);
    if (i === -1) {
      if (flavor === 'current') return { status: 204 };
      throw notFound(`SAML provider ${params.id} not found`);
    }
    saml(org).splice(i, 1);
    return { status: flavor === 'current' ? 205 : 204 };
  });
}
