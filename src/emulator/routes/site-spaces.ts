import { badRequest, conflict } from '../errors.js';
import { paginate } from '../paginate.js';
import { findById, placeRelative } from '../store.js';
import { asBody, optBoolean, optString, reqString } from '../validate.js';
import type { RouteDeps } from './context.js';
import { addSiteSpace } from './sections.js';
import { parsePosition, siteOf } from './site-helpers.js';

export function registerSiteSpaces(deps: RouteDeps): void {
  const { shapes, router } = deps;
  const base = '/orgs/:orgId/sites/:siteId/site-spaces';

  router.on('GET', base, ({ params, query }) => {
    const { org, site } = siteOf(deps, params);
    let items = site.siteSpaces.map((ss) => shapes.siteSpace(org, site, ss));
    const def = query.get('default');
    if (def !== null) {
      if (def !== 'true' && def !== 'false') throw badRequest('default: must be true or false');
      items = items.filter((ss) => ss.default === (def === 'true'));
    }
    return { status: 200, body: paginate(items, query) };
  });
  router.on('POST', base, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const b = asBody(body, true);
    const spaceId = reqString(b, 'spaceId');
    const sectionId = optString(b, 'sectionId');
    let section = sectionId ? findById(site.sections, sectionId, 'site section') : null;
    if (!section && site.defaultSectionId)
      section = findById(site.sections, site.defaultSectionId, 'site section');
    const id = addSiteSpace(org, site, spaceId, section);
    if (deps.flavor === 'current') {
      const made = site.siteSpaces.find((ss) => ss.id === id)!;
      if (optBoolean(b, 'draft')) made.draft = true;
      const pageId = optString(b, 'pageId', { nullable: true });
      if (pageId) made.pageId = pageId;
    }
    return {
      status: 201,
      body: shapes.siteSpace(
        org,
        site,
        site.siteSpaces.find((ss) => ss.id === id)!,
      ),
    };
  });
  router.on('PATCH', `${base}/:siteSpaceId`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const ss = findById(site.siteSpaces, params.siteSpaceId!, 'site space');
    const b = asBody(body);
    const path = optString(b, 'path', { min: 1, max: 100 });
    const condition = optString(b, 'condition', { min: 1, max: 1024, nullable: true });
    const today = deps.flavor === 'current' ? todayFields(b) : {};
    if (
      path &&
      path !== ss.path &&
      site.siteSpaces.some((o) => o.sectionId === ss.sectionId && o.path === path)
    )
      throw conflict(`path: another site space of the same section already uses the path ${path}`);
    if (path) ss.path = path;
    if (condition !== undefined) ss.condition = condition;
    Object.assign(ss, today);
    return { status: 200, body: shapes.siteSpace(org, site, ss) };
  });
  router.on('DELETE', `${base}/:siteSpaceId`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const ss = findById(site.siteSpaces, params.siteSpaceId!, 'site space');
    site.siteSpaces.splice(site.siteSpaces.indexOf(ss), 1);
    const siblings = site.siteSpaces.filter((o) => o.sectionId === ss.sectionId);
    if (ss.sectionId) {
      const section = site.sections.find((s) => s.id === ss.sectionId);
      if (section && section.defaultSiteSpaceId === ss.id)
        section.defaultSiteSpaceId = siblings[0]?.id ?? null;
    } else if (site.defaultRootSiteSpaceId === ss.id) site.defaultRootSiteSpaceId = siblings[0]?.id ?? null;
    return { status: 205 };
  });
  router.on('POST', `${base}/:siteSpaceId/move`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const ss = findById(site.siteSpaces, params.siteSpaceId!, 'site space');
    const { where, id } = parsePosition(body, 'site-space', 'siteSpace');
    const anchor = findById(site.siteSpaces, id, 'site space');
    if (anchor.sectionId !== ss.sectionId)
      throw badRequest(`position.${where}.siteSpace: must be in the same section as the moved site space`);
    if (anchor !== ss) placeRelative(site.siteSpaces, ss, anchor, where);
    return { status: 200, body: shapes.siteSpace(org, site, ss) };
  });
}

/** Today's fields of a site space update (none in api.md). */
function todayFields(b: Record<string, unknown>): {
  draft?: boolean;
  hidden?: boolean;
  pageId?: string | null;
} {
  const draft = optBoolean(b, 'draft');
  const hidden = optBoolean(b, 'hidden');
  const pageId = optString(b, 'pageId', { nullable: true });
  return {
    ...(draft !== undefined ? { draft } : {}),
    ...(hidden !== undefined ? { hidden } : {}),
    ...(pageId !== undefined ? { pageId } : {}),
  };
}
