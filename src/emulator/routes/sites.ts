import { badRequest } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuOrganization, EmuSite } from '../state.js';
import { findById, findOrg, newId, now, placeRelative, slugify, uniquePath } from '../store.js';
import {
  asBody,
  optBoolean,
  optEnum,
  optString,
  optStringArray,
  proxyPattern,
  roles,
  siteVisibilities,
} from '../validate.js';
import type { RouteDeps } from './context.js';
import { siteOf } from './site-helpers.js';
import { sortNavigation } from './navigation-sort.js';
import { checkAdaptiveSchema } from '../adaptive-schema.js';

/** `SiteType` of the official document; api.md names `basic` only. */
const siteTypes = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

/** `DefaultLevel` of today's API: a role or inherit (or null). */
const levels = [...roles, 'inherit'] as const;

const base = '/orgs/:orgId/sites';

export function registerSites(deps: RouteDeps): void {
  registerSiteList(deps);
  registerSiteItem(deps);
  if (deps.flavor === 'current') registerSitePublishing(deps);
  registerAdaptiveSchema(deps);
  // api.md's published view; docsync does not use it and the emulator serves it in `seed` only.
  if (deps.flavor === 'seed') registerPublished(deps);
}

function registerSiteList(deps: RouteDeps): void {
  const { state, shapes, router } = deps;
  router.on('GET', base, ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    let sites = org.sites;
    const space = query.get('space');
    if (space) sites = sites.filter((s) => s.siteSpaces.some((ss) => ss.spaceId === space));
    const title = query.get('title')?.toLowerCase();
    if (title) sites = sites.filter((s) => s.title.toLowerCase().includes(title));
    const published = query.get('published');
    if (published !== null) {
      if (published !== 'true' && published !== 'false') throw badRequest('published: must be true or false');
      sites = sites.filter((s) => s.published === (published === 'true'));
    }
    return {
      status: 200,
      body: paginate(sites, query, (s) => shapes.site(org, s)),
    };
  });

  router.on('POST', base, ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const site = newSite(deps, org, asBody(body));
    org.sites.push(site);
    return { status: 201, body: shapes.site(org, site) };
  });
}

/** A site from a create request's body, its spaces at the root. */
function newSite(deps: RouteDeps, org: EmuOrganization, b: Record<string, unknown>): EmuSite {
  const type = optEnum(b, 'type', deps.flavor === 'current' ? siteTypes : (['basic'] as const)) ?? 'basic';
  const title = optString(b, 'title', { min: 2, max: 128 }) ?? 'Untitled site';
  const visibility = optEnum(b, 'visibility', siteVisibilities) ?? 'public';
  const spaces = b['spaces'] === undefined ? [] : optStringArray(b, 'spaces')!;
  for (const id of spaces) findById(org.spaces, id, 'space');
  const site: EmuSite = {
    id: newId('site'),
    type,
    title,
    visibility,
    published: false,
    basename: null,
    hostname: null,
    agentsContext: 'included',
    adaptiveContent: { enabled: false },
    proxy: null,
    createdAt: now(),
    adaptiveSchema: null,
    adaptiveSchemaUpdatedAt: null,
    defaultSectionId: null,
    defaultRootSiteSpaceId: null,
    sections: [],
    groups: [],
    siteSpaces: [],
    shareLinks: [],
  };
  const taken = new Set<string>();
  for (const spaceId of new Set(spaces)) {
    const sp = org.spaces.find((s) => s.id === spaceId)!;
    const path = uniquePath(slugify(sp.title, 'space'), taken);
    taken.add(path);
    site.siteSpaces.push({ id: newId('sitesp'), spaceId, sectionId: null, path, condition: null });
  }
  site.defaultRootSiteSpaceId = site.siteSpaces[0]?.id ?? null;
  return site;
}

function registerSiteItem(deps: RouteDeps): void {
  const { shapes, router } = deps;
  router.on('GET', `${base}/:siteId`, ({ params }) => {
    const { org, site } = siteOf(deps, params);
    return { status: 200, body: shapes.site(org, site) };
  });

  router.on('DELETE', `${base}/:siteId`, ({ params }) => {
    const { org, site } = siteOf(deps, params);
    org.sites.splice(org.sites.indexOf(site), 1);
    return { status: 205 };
  });

  router.on('PATCH', `${base}/:siteId`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    patchSite(deps, site, asBody(body));
    return { status: 200, body: shapes.site(org, site) };
  });
}

function patchSite(deps: RouteDeps, site: EmuSite, b: Record<string, unknown>): void {
  // Today's API has no agentsContext; bodies do not forbid extra fields, so it is ignored.
  if (deps.flavor === 'current') delete b['agentsContext'];
  const title = optString(b, 'title', { min: 2, max: 128 });
  const visibility = optEnum(b, 'visibility', siteVisibilities);
  const basename = optString(b, 'basename', { min: 1, max: 100 });
  const agentsContext = optEnum(b, 'agentsContext', ['included', 'excluded'] as const);
  const proxy = optString(b, 'proxy', { max: 512, nullable: true, pattern: proxyPattern });
  let adaptive: boolean | undefined;
  if (b['adaptiveContent'] !== undefined) {
    adaptive = optBoolean(asBody(b['adaptiveContent'], true), 'enabled');
    if (adaptive === undefined) throw badRequest('adaptiveContent.enabled: is required');
  }
  const defaultLevel =
    deps.flavor === 'current' ? optEnum(b, 'defaultLevel', levels, { nullable: true }) : undefined;
  const defaultSiteSection = optString(b, 'defaultSiteSection');
  const defaultSiteSpace = optString(b, 'defaultSiteSpace');
  if (defaultSiteSection) findById(site.sections, defaultSiteSection, 'site section');
  let rootDefault: string | undefined;
  let sectionDefault: { sectionId: string; siteSpaceId: string } | undefined;
  if (defaultSiteSpace) {
    const ss = findById(site.siteSpaces, defaultSiteSpace, 'site space');
    if (ss.sectionId === null) rootDefault = ss.id;
    else {
      const effectiveDefaultSection = defaultSiteSection ?? site.defaultSectionId;
      if (ss.sectionId !== effectiveDefaultSection)
        throw badRequest('defaultSiteSpace: must be a root site space or one of the default section');
      sectionDefault = { sectionId: ss.sectionId, siteSpaceId: ss.id };
    }
  }
  if (title) site.title = title;
  if (visibility) site.visibility = visibility;
  if (basename) site.basename = basename;
  if (agentsContext) site.agentsContext = agentsContext;
  if (proxy !== undefined) site.proxy = proxy;
  if (adaptive !== undefined) site.adaptiveContent = { enabled: adaptive };
  if (defaultLevel !== undefined) site.defaultLevel = defaultLevel;
  if (defaultSiteSection) site.defaultSectionId = defaultSiteSection;
  if (rootDefault) site.defaultRootSiteSpaceId = rootDefault;
  if (sectionDefault)
    findById(site.sections, sectionDefault.sectionId, 'site section').defaultSiteSpaceId =
      sectionDefault.siteSpaceId;
}

/** Today's API: publish, unpublish, and sort the navigation. */
function registerSitePublishing(deps: RouteDeps): void {
  const { shapes, router } = deps;
  router.on('POST', `${base}/:siteId/publish`, ({ params }) => {
    const { org, site } = siteOf(deps, params);
    site.published = true;
    return { status: 200, body: shapes.site(org, site) };
  });
  router.on('POST', `${base}/:siteId/unpublish`, ({ params }) => {
    const { org, site } = siteOf(deps, params);
    site.published = false;
    return { status: 200, body: shapes.site(org, site) };
  });
  router.on('PATCH', `${base}/:siteId/structure/sort`, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    sortStructure(site, asBody(body, true));
    return { status: 204 };
  });
}

/** Move an item of the navigation before or after another (`PATCH …/structure/sort`). */
function sortStructure(site: EmuSite, b: Record<string, unknown>): void {
  const item = asBody(b['item'], true);
  const position = asBody(b['position'], true);
  const where = (['before', 'after'] as const).filter((w) => position[w] !== undefined);
  if (where.length !== 1) throw badRequest('position: exactly one of before or after is required');
  const ref = asBody(position[where[0]!], true);
  const types = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
  const itemType = optEnum(item, 'type', types, { required: true })!;
  const refType = optEnum(ref, 'type', types, { required: true })!;
  const itemId = optString(item, 'id') ?? '';
  const refId = optString(ref, 'id') ?? '';
  if (itemType === 'site-space' || refType === 'site-space') {
    if (itemType !== refType) throw badRequest(`position.${where[0]}.type: must be ${itemType}`);
    const a = findById(site.siteSpaces, itemId, 'site space');
    const anchor = findById(site.siteSpaces, refId, 'site space');
    if (a.sectionId !== anchor.sectionId)
      throw badRequest(`position.${where[0]}.id: must be in the same section as the item`);
    if (a !== anchor) placeRelative(site.siteSpaces, a, anchor, where[0]!);
  } else sortNavigation(site, { type: itemType, id: itemId }, { type: refType, id: refId }, where[0]!);
}

function registerAdaptiveSchema(deps: RouteDeps): void {
  const { router } = deps;
  router.on('GET', `${base}/:siteId/adaptive-schema`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const jsonSchema = site.adaptiveSchema ?? {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {},
      additionalProperties: false,
    };
    return {
      status: 200,
      body: {
        object: 'site-adaptive-schema',
        jsonSchema,
        updatedAt: site.adaptiveSchemaUpdatedAt ?? site.createdAt,
      },
    };
  });
  router.on('PUT', `${base}/:siteId/adaptive-schema`, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    const schema = asBody(body, true)['jsonSchema'];
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      throw badRequest('jsonSchema: is required and must be an object');
    if ((schema as Record<string, unknown>)['type'] !== 'object')
      throw badRequest('jsonSchema.type: must be object');
    if (deps.flavor === 'current') checkAdaptiveSchema(schema as Record<string, unknown>);
    site.adaptiveSchema = schema as Record<string, unknown>;
    site.adaptiveSchemaUpdatedAt = now();
    return {
      status: 200,
      body: { object: 'site-adaptive-schema', jsonSchema: schema, updatedAt: site.adaptiveSchemaUpdatedAt },
    };
  });
}

function registerPublished(deps: RouteDeps): void {
  const { shapes, router } = deps;
  router.on('GET', `${base}/:siteId/published`, ({ params }) => {
    const { org, site } = siteOf(deps, params);
    return {
      status: 200,
      body: {
        object: 'published-content-site',
        site: shapes.site(org, site),
        structure: { type: 'sections', structure: site.sections.map((s) => shapes.section(org, site, s)) },
        customizations: {
          site: {
            title: site.title,
            styling: { theme: 'clean', primaryColor: { light: '#346DDB', dark: '#346DDB' } },
          },
        },
      },
    };
  });
}
