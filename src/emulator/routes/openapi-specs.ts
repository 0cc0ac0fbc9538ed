import { badRequest, conflict, notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuOrganization } from '../state.js';
import { findOrg, newId, now } from '../store.js';
import { asBody, optEnum, reqString } from '../validate.js';
import { flavoredLocation, type RouteDeps } from './context.js';

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Today's API allows upper case letters in OpenAPI slugs. */
const currentSlugPattern = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

type Spec = NonNullable<EmuOrganization['openapi']>[number];

const spec = (org: EmuOrganization) => (org.openapi ??= []);

function specShape(deps: RouteDeps, org: EmuOrganization, s: Spec) {
  return {
    object: 'openapi-spec',
    id: s.id,
    slug: s.slug,
    ...(s.source !== null ? { sourceURL: s.source } : {}),
    processingState: 'pending',
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    lastProcessedErrorCount: 0,
    ...(deps.flavor === 'current' ? { visibility: s.visibility ?? 'private' } : {}),
    permissions: { view: true, edit: true },
    urls: {
      location: flavoredLocation(deps, `/orgs/${org.id}/openapi/${s.slug}`),
      app: `https://app.emulator.local/o/${org.id}/openapi/${s.slug}`,
    },
  };
}

/** The source: a URL, or (today's API) the document's text. */
function sourceOf(
  flavor: RouteDeps['flavor'],
  b: Record<string, unknown>,
): { source: string | null; text?: string } {
  const source = asBody(b['source'], true);
  if (flavor === 'current' && source['url'] === undefined && source['text'] !== undefined)
    return { source: null, text: reqString(source, 'text', { min: 1 }) };
  return { source: reqString(source, 'url', { max: 2048, pattern: /^https?:\/\/\S+$/ }) };
}

function findSpec(org: EmuOrganization, slug: string): Spec {
  const s = spec(org).find((x) => x.slug === slug);
  if (!s) throw notFound(`OpenAPI spec ${slug} not found`);
  return s;
}

/** OpenAPI specs: made from a URL or (today's API) from the document's text. */
export function registerOpenApiSpecs(deps: RouteDeps): void {
  const { state, router, flavor } = deps;
  const slugs = flavor === 'current' ? currentSlugPattern : slugPattern;
  const shape = (org: EmuOrganization, s: Spec) => specShape(deps, org, s);
  router.on('GET', '/orgs/:orgId/openapi', ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    return {
      status: 200,
      body: paginate(spec(org), query, (s) => shape(org, s)),
    };
  });
  router.on('POST', '/orgs/:orgId/openapi', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const b = asBody(body, true);
    const slug = reqString(b, 'slug', { min: 1, max: 100, pattern: slugs });
    const from = sourceOf(flavor, b);
    if (spec(org).some((s) => s.slug === slug)) throw conflict(`slug: an OpenAPI spec ${slug} exists`);
    const s = { id: newId('oas'), slug, ...from, createdAt: now(), updatedAt: now() };
    spec(org).push(s);
    return { status: 201, body: shape(org, s) };
  });
  router.on('GET', '/orgs/:orgId/openapi/:slug', ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    return { status: 200, body: shape(org, findSpec(org, params.slug!)) };
  });
  router.on('PUT', '/orgs/:orgId/openapi/:slug', ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const from = sourceOf(flavor, asBody(body, true));
    const existing = spec(org).find((x) => x.slug === params.slug);
    if (existing) {
      existing.source = from.source;
      if (from.text !== undefined) existing.text = from.text;
      else delete existing.text;
      existing.updatedAt = now();
      return { status: 200, body: shape(org, existing) };
    }
    if (!slugs.test(params.slug!)) throw badRequest('slug: invalid');
    const s = { id: newId('oas'), slug: params.slug!, ...from, createdAt: now(), updatedAt: now() };
    spec(org).push(s);
    return { status: flavor === 'current' ? 201 : 200, body: shape(org, s) };
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
      return { status: 200, body: shape(org, s) };
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
}
