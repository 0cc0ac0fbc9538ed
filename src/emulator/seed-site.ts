import { seedDeclared } from './declared.js';
import type { SeedSite, SeedSiteSpace } from './seed-schema.js';
import { siteFaceFromSeed } from './site-face-seed.js';
import type { EmuGroup, EmuSite } from './state.js';
import { slugify, uniquePath } from './store.js';

/** When everything a seed makes was made. */
export const CREATED = '2024-01-01T00:00:00.000Z';

/** Makes the ids a seed leaves out (one counter for the whole seed). */
export type NewId = (prefix: string) => string;

type SpaceTitles = { id: string; title: string }[];

/**
 * A site from its seed. The ids it leaves out come in this order: section groups, the site,
 * declared kinds (share links), then each section and its site spaces, then the root's site spaces.
 */
export function siteFromSeed(org: string, s: SeedSite, spaces: SpaceTitles, newId: NewId): EmuSite {
  const groups = groupsFromSeed(s, newId);
  const result = bareSite(s, groups, newId);
  // The lists of declared kinds held by a site (its share links): as each kind's emulator part says.
  Object.assign(result, seedDeclared('sites', s, { org, site: result.id }, newId, CREATED));
  // Its face (today's API): the keys a seed gives, over the defaults of a new site.
  Object.assign(result, siteFaceFromSeed(s));
  sectionsFromSeed(result, s, groups, spaces, newId);
  result.defaultRootSiteSpaceId = addSiteSpaces(result, s.siteSpaces, null, spaces, newId);
  return result;
}

/** Section groups, each nested in its parent (given by id or title) when it has one. */
function groupsFromSeed(s: SeedSite, newId: NewId): EmuGroup[] {
  const groups: EmuGroup[] = s.sectionGroups.map((g) => ({
    id: g.id ?? newId('sitesg'),
    title: g.title,
    icon: g.icon ?? null,
    ...(g.draft ? { draft: true } : {}),
    ...(g.localizedTitle ? { localizedTitle: g.localizedTitle } : {}),
  }));
  s.sectionGroups.forEach((g, i) => {
    const parent = g.parent ? groups.find((x) => x.id === g.parent || x.title === g.parent) : undefined;
    if (parent) groups[i]!.parentId = parent.id;
  });
  return groups;
}

/** The site itself, before its declared kinds, face, sections and site spaces. */
function bareSite(s: SeedSite, groups: EmuGroup[], newId: NewId): EmuSite {
  return {
    id: s.id ?? newId('site'),
    type: 'basic',
    title: s.title,
    visibility: s.visibility,
    published: s.published,
    basename: s.basename ?? null,
    hostname: null,
    agentsContext: s.agentsContext,
    adaptiveContent: s.adaptiveContent ?? { enabled: false },
    proxy: s.proxy ?? null,
    ...(s.defaultLevel ? { defaultLevel: s.defaultLevel } : {}),
    createdAt: CREATED,
    adaptiveSchema: null,
    adaptiveSchemaUpdatedAt: null,
    defaultSectionId: null,
    defaultRootSiteSpaceId: null,
    sections: [],
    groups,
    siteSpaces: [],
    shareLinks: [],
  };
}

/** The site's sections, each with its site spaces; the default is the first, or the one marked. */
function sectionsFromSeed(
  result: EmuSite,
  s: SeedSite,
  groups: EmuGroup[],
  spaces: SpaceTitles,
  newId: NewId,
): void {
  const takenSections = new Set<string>();
  for (const sec of s.sections) {
    const id = sec.id ?? newId('sitesc');
    const path = sec.path ?? uniquePath(slugify(sec.title, 'section'), takenSections);
    takenSections.add(path);
    const group = sec.sectionGroup
      ? groups.find((g) => g.id === sec.sectionGroup || g.title === sec.sectionGroup)
      : undefined;
    result.sections.push({
      id,
      title: sec.title,
      path,
      description: sec.description ?? null,
      condition: sec.condition ?? null,
      icon: sec.icon ?? null,
      groupId: group?.id ?? null,
      defaultSiteSpaceId: null,
      ...(sec.draft ? { draft: true } : {}),
      ...(sec.localizedTitle ? { localizedTitle: sec.localizedTitle } : {}),
      ...(sec.localizedDescription ? { localizedDescription: sec.localizedDescription } : {}),
    });
    result.sections.at(-1)!.defaultSiteSpaceId = addSiteSpaces(result, sec.siteSpaces, id, spaces, newId);
    if (result.defaultSectionId === null || sec.default) result.defaultSectionId = id;
  }
}

/** Site spaces of a section (or the root): the id of the default, the first or the one marked. */
function addSiteSpaces(
  result: EmuSite,
  list: SeedSiteSpace[],
  sectionId: string | null,
  spaces: SpaceTitles,
  newId: NewId,
): string | null {
  const taken = new Set<string>();
  let def: string | null = null;
  for (const ss of list) {
    const title = () => spaces.find((x) => x.id === ss.space)?.title ?? ss.space;
    const path = ss.path ?? uniquePath(slugify(title(), 'space'), taken);
    taken.add(path);
    const id = ss.id ?? newId('sitesp');
    result.siteSpaces.push({
      id,
      spaceId: ss.space,
      sectionId,
      path,
      condition: ss.condition ?? null,
      ...(ss.draft ? { draft: true } : {}),
      ...(ss.hidden ? { hidden: true } : {}),
      ...(ss.pageId ? { pageId: ss.pageId } : {}),
      ...(ss.customization ? { customization: ss.customization } : {}),
    });
    if (def === null || ss.default) def = id;
  }
  return def;
}
