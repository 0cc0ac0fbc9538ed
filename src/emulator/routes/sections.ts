import { badRequest, conflict } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuGroup, EmuOrganization, EmuSection, EmuSite } from '../state.js';
import { isWithin, linksOf, placeInNav, toEnd } from '../nav-order.js';
import { findById, newId, slugify, uniquePath } from '../store.js';
import { asBody, optBoolean, optLocalized, optString, optStringArray, reqString } from '../validate.js';
import type { RouteDeps } from './context.js';
import { parsePosition, siteOf } from './site-helpers.js';

function addSiteSpace(
  org: EmuOrganization,
  site: EmuSite,
  spaceId: string,
  section: EmuSection | null,
): string {
  const space = findById(org.spaces, spaceId, 'space');
  if (site.siteSpaces.some((ss) => ss.spaceId === spaceId))
    throw conflict(`spaceId: space ${spaceId} is already part of site ${site.id}`);
  const sectionId = section?.id ?? null;
  const taken = new Set(site.siteSpaces.filter((ss) => ss.sectionId === sectionId).map((ss) => ss.path));
  const id = newId('sitesp');
  site.siteSpaces.push({
    id,
    spaceId,
    sectionId,
    path: uniquePath(slugify(space.title, 'space'), taken),
    condition: null,
  });
  if (section && section.defaultSiteSpaceId === null) section.defaultSiteSpaceId = id;
  if (!section && site.defaultRootSiteSpaceId === null) site.defaultRootSiteSpaceId = id;
  return id;
}

export { addSiteSpace };

/** Today's fields of a section or group update (`draft`, localized texts); none in api.md. */
function currentFields(
  flavor: 'seed' | 'current',
  b: Record<string, unknown>,
): {
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
} {
  if (flavor !== 'current') return {};
  const draft = optBoolean(b, 'draft');
  const localizedTitle = optLocalized(b, 'localizedTitle', 128);
  const localizedDescription = optLocalized(b, 'localizedDescription', 256);
  return {
    ...(draft !== undefined ? { draft } : {}),
    ...(localizedTitle !== undefined ? { localizedTitle } : {}),
    ...(localizedDescription !== undefined ? { localizedDescription } : {}),
  };
}

const groups = '/orgs/:orgId/sites/:siteId/section-groups';

const group = (site: EmuSite, id: string): EmuGroup => findById(site.groups, id, 'section group');

export function registerSections(deps: RouteDeps): void {
  registerSectionRoutes(deps);
  registerGroupRoutes(deps);
}

function registerSectionRoutes(deps: RouteDeps): void {
  const { shapes, router } = deps;
  const base = '/orgs/:orgId/sites/:siteId/sections';
  router.on('GET', base, ({ params, query }) => {
    const { org, site } = siteOf(deps, params);
    return {
      status: 200,
      body: paginate(site.sections, query, (s) => shapes.section(org, site, s)),
    };
  });
  router.on('POST', base, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const section = newSection(deps, org, site, asBody(body, true));
    return { status: 201, body: shapes.section(org, site, section) };
  });
  router.on('PATCH', `${base}/:sectionId`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const section = findById(site.sections, params.sectionId!, 'site section');
    patchSection(deps, site, section, asBody(body));
    return { status: 200, body: shapes.section(org, site, section) };
  });
  router.on('DELETE', `${base}/:sectionId`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const section = findById(site.sections, params.sectionId!, 'site section');
    site.sections.splice(site.sections.indexOf(section), 1);
    site.siteSpaces = site.siteSpaces.filter((ss) => ss.sectionId !== section.id);
    if (site.defaultSectionId === section.id) site.defaultSectionId = site.sections[0]?.id ?? null;
    return { status: 205 };
  });
  router.on('POST', `${base}/:sectionId/move`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const section = findById(site.sections, params.sectionId!, 'site section');
    const { where, id } = parsePosition(body, 'site-section', 'siteSection');
    const anchor = findById(site.sections, id, 'site section');
    placeInNav(site, section.id, anchor.id, where);
    return { status: 200, body: shapes.section(org, site, section) };
  });
}

/** A new section of the site with its space (the site's default section when it has none). */
function newSection(
  deps: RouteDeps,
  org: EmuOrganization,
  site: EmuSite,
  b: Record<string, unknown>,
): EmuSection {
  const spaceId = reqString(b, 'spaceId');
  const title =
    deps.flavor === 'current'
      ? optString(b, 'title', { min: 2, max: 128, nullable: true })
      : optString(b, 'title', { max: 64 });
  const draft = deps.flavor === 'current' ? optBoolean(b, 'draft') : undefined;
  const space = findById(org.spaces, spaceId, 'space');
  // Without a title, the platform names the section after its space (whatever its length).
  const sectionTitle = title ?? space.title;
  const section: EmuSection = {
    id: newId('sitesc'),
    title: sectionTitle,
    path: uniquePath(slugify(sectionTitle, 'section'), new Set(site.sections.map((s) => s.path))),
    description: null,
    condition: null,
    icon: null,
    groupId: null,
    defaultSiteSpaceId: null,
    ...(draft ? { draft } : {}),
  };
  if (site.siteSpaces.some((ss) => ss.spaceId === spaceId))
    throw conflict(`spaceId: space ${spaceId} is already part of site ${site.id}`);
  site.sections.push(section);
  toEnd(site, section.id);
  addSiteSpace(org, site, spaceId, section);
  if (site.defaultSectionId === null) site.defaultSectionId = section.id;
  return section;
}

function patchSection(deps: RouteDeps, site: EmuSite, section: EmuSection, b: Record<string, unknown>): void {
  const title = optString(b, 'title', { min: 2, max: 128 });
  const path = optString(b, 'path', { min: 1, max: 100 });
  const condition = optString(b, 'condition', { min: 1, max: 1024, nullable: true });
  const icon = optString(b, 'icon', { max: 50, nullable: true });
  const description = optString(b, 'description', { max: 256, nullable: true });
  const defaultSiteSpace = optString(b, 'defaultSiteSpace');
  // Today's API sets group membership on the section itself.
  const groupId =
    deps.flavor === 'current' ? optString(b, 'siteSectionGroupId', { nullable: true }) : undefined;
  if (groupId) findById(site.groups, groupId, 'section group');
  const today = currentFields(deps.flavor, b);
  if (defaultSiteSpace) {
    const ss = findById(site.siteSpaces, defaultSiteSpace, 'site space');
    if (ss.sectionId !== section.id)
      throw badRequest('defaultSiteSpace: must be a site space of this section');
  }
  if (path && path !== section.path && site.sections.some((s) => s.path === path))
    throw conflict(`path: another section of the site already uses the path ${path}`);
  if (title) section.title = title;
  if (path) section.path = path;
  if (condition !== undefined) section.condition = condition;
  if (icon !== undefined) section.icon = icon;
  if (description !== undefined) section.description = description;
  if (defaultSiteSpace) section.defaultSiteSpaceId = defaultSiteSpace;
  if (groupId !== undefined) section.groupId = groupId;
  Object.assign(section, today);
}

function registerGroupRoutes(deps: RouteDeps): void {
  const { shapes, router } = deps;
  router.on('GET', groups, ({ params, query }) => {
    const { org, site } = siteOf(deps, params);
    return {
      status: 200,
      body: paginate(site.groups, query, (g) => shapes.group(org, site, g)),
    };
  });
  router.on('POST', groups, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const created = newGroup(deps, site, asBody(body, true));
    return { status: 201, body: shapes.group(org, site, created) };
  });
  router.on('PATCH', `${groups}/:groupId`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const g = group(site, params.groupId!);
    patchGroup(deps, site, g, asBody(body));
    return { status: 200, body: shapes.group(org, site, g) };
  });
  router.on('DELETE', `${groups}/:groupId`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const g = group(site, params.groupId!);
    site.groups.splice(site.groups.indexOf(g), 1);
    // What it held goes to the site's root.
    for (const s of site.sections) if (s.groupId === g.id) s.groupId = null;
    for (const x of site.groups) if (x.parentId === g.id) x.parentId = null;
    for (const l of linksOf(site)) if (l.groupId === g.id) l.groupId = null;
    return { status: 205 };
  });
  if (deps.flavor === 'seed') registerGroupMembership(deps);
  router.on('POST', `${groups}/:groupId/move`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const g = group(site, params.groupId!);
    const { where, id } = parsePosition(body, 'site-section', 'id');
    const anchor = group(site, id);
    placeInNav(site, g.id, anchor.id, where);
    return { status: 200, body: shapes.group(org, site, g) };
  });
}

/** A new section group, last of the site's root (or, today, of its parent group), with its sections. */
function newGroup(deps: RouteDeps, site: EmuSite, b: Record<string, unknown>): EmuGroup {
  const title = reqString(b, 'title', { min: 1, max: 100 });
  const icon = optString(b, 'icon', { max: 50, nullable: true }) ?? null;
  const sectionIds = optStringArray(b, 'sections') ?? [];
  const sections = sectionIds.map((id) => findById(site.sections, id, 'site section'));
  const draft = deps.flavor === 'current' ? optBoolean(b, 'draft') : undefined;
  // Today's API nests a new group in `parent` (a group of the site).
  const parent = deps.flavor === 'current' ? optString(b, 'parent') : undefined;
  if (parent) group(site, parent);
  const created: EmuGroup = {
    id: newId('sitesg'),
    title,
    icon,
    ...(draft ? { draft } : {}),
    ...(parent ? { parentId: parent } : {}),
  };
  site.groups.push(created);
  toEnd(site, created.id);
  for (const s of sections) s.groupId = created.id;
  return created;
}

function patchGroup(deps: RouteDeps, site: EmuSite, g: EmuGroup, b: Record<string, unknown>): void {
  const title = optString(b, 'title', { min: 1, max: 100 });
  const icon = optString(b, 'icon', { max: 50, nullable: true });
  const today = currentFields(deps.flavor, b);
  const parent =
    deps.flavor === 'current' ? optString(b, 'parentSectionGroupId', { nullable: true }) : undefined;
  if (parent) {
    group(site, parent);
    if (isWithin(site, parent, g.id))
      throw badRequest('parentSectionGroupId: a group cannot be nested in itself or in a group it contains');
  }
  if (title) g.title = title;
  if (icon !== undefined) g.icon = icon;
  // Moved into another group (or to the root): last of its new level.
  if (parent !== undefined && parent !== (g.parentId ?? null)) {
    g.parentId = parent;
    toEnd(site, g.id);
  }
  if (today.draft !== undefined) g.draft = today.draft;
  if (today.localizedTitle !== undefined) g.localizedTitle = today.localizedTitle;
}

/** api.md's membership endpoints; today's API sets `siteSectionGroupId` on the section instead. */
function registerGroupMembership(deps: RouteDeps): void {
  const { shapes, router } = deps;
  router.on('POST', `${groups}/:groupId/sections`, ({ params, body }) => {
    const { org, site } = siteOf(deps, params);
    const g = group(site, params.groupId!);
    const section = findById(site.sections, reqString(asBody(body, true), 'sectionId'), 'site section');
    section.groupId = g.id;
    return { status: 201, body: shapes.group(org, site, g) };
  });
  router.on('DELETE', `${groups}/:groupId/sections/:sectionId`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const g = group(site, params.groupId!);
    const section = findById(site.sections, params.sectionId!, 'site section');
    // 204: the section was not part of the group; 205: removed.
    if (section.groupId !== g.id) return { status: 204 };
    section.groupId = null;
    return { status: 205 };
  });
}
