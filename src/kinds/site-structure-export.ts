import { duplicatesOf } from './fields.js';
import { CUSTOMIZATION_ATOMIC } from './site-customization.js';
import { nonDefault } from './sparse.js';
import type { LiveSection, LiveSectionGroup, LiveSiteSpace, LiveStructure } from './site-section.js';
import type { StructureConfig } from './site-structure-config.js';

/**
 * A site's structure as config (export, decision 10): its sections and groups, or its root site
 * spaces, and the names its items have there. Beside site-structure.ts, which re-exports it.
 */

/** A site space's overrides: the keys of its document that differ from the site's (none: undefined). */
function overridesOf(ss: LiveSiteSpace, siteDoc: Record<string, unknown> | undefined) {
  if (!ss.customization || !siteDoc) return {};
  const doc = nonDefault(ss.customization, siteDoc, CUSTOMIZATION_ATOMIC);
  return Object.keys(doc).length > 0 ? { customization: doc } : {};
}

const exportSiteSpace = (siteDoc: Record<string, unknown> | undefined) => (ss: LiveSiteSpace) => ({
  space: ss.space,
  path: ss.path,
  ...(ss.condition !== null ? { condition: ss.condition } : {}),
  ...(ss.default ? { default: true } : {}),
  ...(ss.draft ? { draft: true } : {}),
  ...(ss.hidden ? { hidden: true } : {}),
  ...(ss.pageId !== null ? { pageId: ss.pageId } : {}),
  ...overridesOf(ss, siteDoc),
});

/** A localized text, when it has any override. */
const someLocalized = (key: string, value: Record<string, string>) =>
  Object.keys(value).length > 0 ? { [key]: value } : {};

/** Titles the config accepts; the platform names a section after its space, whatever its length. */
const SECTION_TITLE = { min: 2, max: 128 };

function exportSection(s: LiveSection, siteDoc: Record<string, unknown> | undefined) {
  const titleFits = s.title.length >= SECTION_TITLE.min && s.title.length <= SECTION_TITLE.max;
  return {
    path: s.path,
    // A title the config cannot hold is left out: unmanaged, so the plan leaves it as it is.
    ...(titleFits ? { title: s.title } : {}),
    ...(s.icon !== null ? { icon: s.icon } : {}),
    ...(s.description !== null ? { description: s.description } : {}),
    ...(s.condition !== null ? { condition: s.condition } : {}),
    ...(s.default ? { default: true } : {}),
    ...(s.draft ? { draft: true } : {}),
    ...someLocalized('localizedTitle', s.localizedTitle),
    ...someLocalized('localizedDescription', s.localizedDescription),
    spaces: s.spaces.map(exportSiteSpace(siteDoc)),
  };
}

/** A nested group's `parent`: the title of the group it is in (nothing at the root). */
function nestedIn(g: LiveSectionGroup, groups: readonly LiveSectionGroup[]) {
  const parent = g.parent === null ? undefined : groups.find((x) => x.id === g.parent);
  return parent ? { parent: parent.title } : {};
}

/** A site's structure as config: its sections and groups, or its root site spaces. */
export function exportStructure(
  l: LiveStructure,
  title: string,
  warnings: string[],
  /** The site's customization: a site space's overrides are the keys that differ from it. */
  siteDoc?: Record<string, unknown>,
): StructureConfig {
  const sections = (l.sections ?? []).filter((s) => {
    if (s.spaces.length > 0) return true;
    warnings.push(
      `site "${title}": section "${s.path}" has no site spaces and cannot be described; left out (unmanaged)`,
    );
    return false;
  });
  const rootSpaces = l.spaces ?? [];
  if (sections.length > 0 && rootSpaces.length > 0)
    warnings.push(`site "${title}" has both sections and root site spaces; only the sections are exported`);
  if (sections.length === 0) return { spaces: rootSpaces.map(exportSiteSpace(siteDoc)) };
  const dupGroups = duplicatesOf((l.sectionGroups ?? []).map((g) => g.title));
  return {
    sections: sections.map((s) => exportSection(s, siteDoc)),
    sectionGroups: (l.sectionGroups ?? []).map((g) => ({
      title: g.title,
      ...(dupGroups.has(g.title) ? { id: g.id } : {}),
      ...(g.icon !== null ? { icon: g.icon } : {}),
      ...(g.draft ? { draft: true } : {}),
      ...someLocalized('localizedTitle', g.localizedTitle),
      ...nestedIn(g, l.sectionGroups ?? []),
      sections: sections.filter((s) => s.group === g.id).map((s) => s.path),
    })),
  };
}

/**
 * The names a live structure's items have in an exported config, each held once: the title of a
 * group by id, and whether a name is one exported item (a section without site spaces is not
 * exported; a name two items share is ambiguous).
 */
export function exportedNames(l: LiveStructure): {
  groupTitle: (id: string) => string | undefined;
  names: string[];
} {
  const groups = l.sectionGroups ?? [];
  return {
    groupTitle: (id) => groups.find((g) => g.id === id)?.title,
    names: [
      ...(l.sections ?? []).filter((s) => s.spaces.length > 0).map((s) => s.path),
      ...groups.map((g) => g.title),
    ],
  };
}
