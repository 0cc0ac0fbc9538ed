import { z } from 'zod';
import { defined, localized, pin, previously } from './fields.js';
import { brokenLinksPolicies } from '../diff/site-paths.js';
import { CustomizationConfig, OverridesConfig } from './site-customization.js';
import { nestedDocs } from './sparse.js';
import type { KindDoc } from './types.js';
import { mapHoley } from '../model/holey.js';
import { repeatsIn, reportRepeats, Seen } from '../model/repeats.js';
import type { EntryChecks } from './shapes.js';
import type {
  DesiredSection,
  DesiredSectionGroup,
  DesiredSiteSpace,
  DesiredStructure,
} from './site-section.js';
import { nestingIssues } from './section-group-nesting.js';
import type { StructureNames } from './external-link-place.js';

/**
 * The config of a site's structure (beside site-structure.ts, which composes the structure): the
 * keys `sections`, `sectionGroups` and `spaces` take in a site, with their reference docs, their
 * normalization to the desired state, their checks, and the names external links may refer to.
 */

const Icon = z.string().min(1).max(50).describe('Icon name, at most 50 characters.');
const Condition = z.string().min(1).max(1024).describe('Visitor condition expression, 1 to 1024 characters.');
const Path = z.string().min(1).max(100).describe('URL path segment, 1 to 100 characters.');
const BrokenLinks = z
  .enum(brokenLinksPolicies)
  .optional()
  .describe(
    "Optional (current API): what a plan that changes this entry's published path does, over policy.brokenLinks (redirect, refuse or allow). Omitted: the policy's.",
  );

const OVERRIDES =
  "Optional (current API): this site space's customization overrides, sparse like the site's: only the keys given are compared and written (PATCH); the others fall back to the site's. A key set to null has no override (the site's value). null: no overrides at all (a plan deletes those present). Omitted: unmanaged.";

const SiteSpaceConfig = z.strictObject({
  space: z.string().min(1).describe('Id of the space; identity of the site space within its site.'),
  path: Path.optional().describe(
    'Optional, 1 to 100 characters. Omitted: the platform names it after the space on creation; unmanaged afterwards.',
  ),
  condition: Condition.nullable().optional().describe('Optional; null removes it. Omitted: unmanaged.'),
  default: z
    .boolean()
    .optional()
    .describe('Default site space of its section (or of the site root). Omitted: unmanaged.'),
  draft: z
    .boolean()
    .optional()
    .describe(
      'Optional (current API): a draft is not live; a new one is created as a draft. false promotes it. Omitted: unmanaged.',
    ),
  hidden: z
    .boolean()
    .optional()
    .describe(
      "Optional (current API): left out of the site's navigation (still reachable by its URL). Omitted: unmanaged.",
    ),
  pageId: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe(
      "Optional (current API): id of the space's page shown at the site space's root instead of its first page; null restores the default. Omitted: unmanaged.",
    ),
  customization: OverridesConfig.describe(OVERRIDES).nullable().optional().describe(OVERRIDES),
  brokenLinks: BrokenLinks,
});

/** A draft flag of a section or group (today's API). */
const Draft = z
  .boolean()
  .optional()
  .describe(
    'Optional (current API): a draft is not live (readers do not see it; the site preview does); a new one is created as a draft, false promotes it. Omitted: unmanaged.',
  );

const SectionConfig = z.strictObject({
  path: Path.describe('Identity of the section within its site.'),
  title: z
    .string()
    .min(2)
    .max(128)
    .optional()
    .describe(
      "Optional, 2 to 128 characters. Omitted: the platform names a new section after its first space's title, and docsync leaves the title alone afterwards.",
    ),
  icon: Icon.nullable().optional().describe('Optional; null removes it. Omitted: unmanaged.'),
  description: z
    .string()
    .max(256)
    .nullable()
    .optional()
    .describe('Optional, at most 256 characters; null removes it. Omitted: unmanaged.'),
  condition: Condition.nullable().optional().describe('Optional; null removes it. Omitted: unmanaged.'),
  default: z.boolean().optional().describe('Default section of the site (at most one). Omitted: unmanaged.'),
  draft: Draft,
  localizedTitle: localized(128, 'title'),
  localizedDescription: localized(256, 'description'),
  brokenLinks: BrokenLinks,
  spaces: z.array(SiteSpaceConfig).describe('Site spaces of this section, in display order (at least one).'),
});

const GroupConfig = z.strictObject({
  title: z.string().min(1).max(100).describe('Identity of the group within its site (unless id is pinned).'),
  id: pin('title'),
  previously: previously('title'),
  icon: Icon.nullable().optional(),
  draft: Draft,
  localizedTitle: localized(128, 'title'),
  parent: z
    .string()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe(
      "Optional (current API): the title of the section group (of this site's sectionGroups) this group is nested in; null puts it at the site's root. Omitted: unmanaged (a new group is created at the root).",
    ),
  sections: z
    .array(Path)
    .optional()
    .describe(
      'Paths of the sections in this group (a section belongs to one group: listing it here moves it from another). Omitted: the group is created empty and its memberships are unmanaged (sections join or leave it outside docsync).',
    ),
});

/** The structure's keys that api.md lacks (src/config/absent.ts refuses them for the seed flavor). */
export const structureAbsentKeys = [
  ...['draft', 'localizedTitle', 'localizedDescription'].map((k) => `sections[].${k}`),
  ...['draft', 'hidden', 'pageId', 'customization'].flatMap((k) => [
    `sections[].spaces[].${k}`,
    `spaces[].${k}`,
  ]),
  ...['draft', 'localizedTitle', 'parent'].map((k) => `sectionGroups[].${k}`),
];

/** The keys the structure takes in a site entry. */
export const structureShape = {
  sections: z.array(SectionConfig).optional().describe('Sections in display order.'),
  sectionGroups: z
    .array(GroupConfig)
    .optional()
    .describe("Optional. Omitted: groups and sections' memberships are not read or changed."),
  spaces: z.array(SiteSpaceConfig).optional().describe('Root site spaces, for a site without sections.'),
};
export type StructureConfig = { [K in keyof typeof structureShape]?: z.infer<(typeof structureShape)[K]> };

/** A site space's keys after `space`, in the order the desired state lists them. */
const SITE_SPACE_KEYS = [
  'path',
  'condition',
  'default',
  'draft',
  'hidden',
  'pageId',
  'customization',
  'brokenLinks',
] as const;

/**
 * The entry with the given keys that it sets, in that order (what `defined` makes of an object
 * literal, without the literal: one object per site space and section, issue 33).
 */
function pickDefined(from: Record<string, unknown>, keys: readonly string[], out: Record<string, unknown>) {
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/**
 * A site space as the desired state holds it: the config's own object when it already is one (its
 * keys `space` then those of SITE_SPACE_KEYS it sets, in that order, none undefined: what the
 * schema's answer nearly always is), else a copy. Shared, not copied: the copy was one more object
 * per site space to allocate and to carry through the scavenges while the config loads (66,400 in
 * a config of 100k resources, 3.8 MB; issue 33). Neither the config nor the desired state is
 * written to after the load (a nested `customization` object was always shared so).
 * A copy's object starts empty: an empty literal has room for four properties in the object
 * itself, where `{ space }` had room for one and put each key added after it in a second object.
 */
const siteSpace = (s: z.infer<typeof SiteSpaceConfig>): DesiredSiteSpace => {
  if (isDesiredSiteSpace(s as Record<string, unknown>)) return s as DesiredSiteSpace;
  const out: Record<string, unknown> = {};
  out['space'] = s.space;
  return pickDefined(s, SITE_SPACE_KEYS, out) as DesiredSiteSpace;
};

/** A site space's keys in the desired state's order: `space`, then SITE_SPACE_KEYS. */
const SITE_SPACE_ORDER: readonly string[] = ['space', ...SITE_SPACE_KEYS];

/** Whether `s`'s own keys are `space`, then keys of SITE_SPACE_KEYS in that order, none undefined. */
function isDesiredSiteSpace(s: Record<string, unknown>): boolean {
  let k = 0;
  for (const key in s) {
    // The first key is `space` (k 0); each next one is found further on.
    if (k > 0) while (k < SITE_SPACE_ORDER.length && SITE_SPACE_ORDER[k] !== key) k += 1;
    if (k === SITE_SPACE_ORDER.length || SITE_SPACE_ORDER[k] !== key || s[key] === undefined) return false;
    k += 1;
  }
  return k > 0;
}

/**
 * A section as the desired state holds it: the keys it sets, in the order below (its schema's), then
 * its site spaces. Each key read and written by name: `pickDefined`'s reads by a key from a list were
 * megamorphic (a call into V8's stub cache each, ten per section, most of them run before TurboFan
 * has compiled the load; issue 33).
 */
const section = (sec: z.infer<typeof SectionConfig>): DesiredSection => {
  const out: Record<string, unknown> = {};
  if (sec.path !== undefined) out['path'] = sec.path;
  if (sec.title !== undefined) out['title'] = sec.title;
  if (sec.icon !== undefined) out['icon'] = sec.icon;
  if (sec.description !== undefined) out['description'] = sec.description;
  if (sec.condition !== undefined) out['condition'] = sec.condition;
  if (sec.default !== undefined) out['default'] = sec.default;
  if (sec.draft !== undefined) out['draft'] = sec.draft;
  if (sec.localizedTitle !== undefined) out['localizedTitle'] = sec.localizedTitle;
  if (sec.localizedDescription !== undefined) out['localizedDescription'] = sec.localizedDescription;
  if (sec.brokenLinks !== undefined) out['brokenLinks'] = sec.brokenLinks;
  // Holey arrays, as the live ones: the structure diff reads both (model/holey.ts).
  out['spaces'] = mapHoley(sec.spaces, siteSpace);
  return out as DesiredSection;
};

export function normalizeStructure(s: StructureConfig): DesiredStructure {
  return defined({
    sections: s.sections && mapHoley(s.sections, section),
    sectionGroups: s.sectionGroups?.map(
      (g) =>
        defined({
          title: g.title,
          id: g.id,
          previously: g.previously,
          icon: g.icon,
          draft: g.draft,
          localizedTitle: g.localizedTitle,
          parent: g.parent,
          sections: g.sections,
        }) as DesiredSectionGroup,
    ),
    spaces: s.spaces && mapHoley(s.spaces, siteSpace),
  });
}

/** At most one default among `items`; the second is reported where it is. */
function oneDefault(on: EntryChecks, what: string) {
  let first: (string | number)[] | undefined;
  return (isDefault: boolean | undefined, path: (string | number)[]) => {
    if (!isDefault) return;
    if (first)
      on.report(
        path,
        `only one ${what} can be the default (another is at ${on.where(first)})`,
        'multiple-defaults',
      );
    else first = path;
  };
}

/** Where a site's list of site spaces is: section `k`'s, or the root's (`k` -1). */
const spacesAt = (k: number): (string | number)[] => (k === -1 ? ['spaces'] : ['sections', k, 'spaces']);

/** Checks of a site's structure that its schema cannot express. */
export function checkStructure(site: StructureConfig, on: EntryChecks): void {
  const siteSpaces = on.unique('site space for space');
  if (site.sections && site.sections.length > 0 && site.spaces && site.spaces.length > 0)
    on.report(['spaces'], 'a site has either sections or root spaces, not both', 'sections-and-spaces', true);
  const spaceSeen = new Seen();
  const spaces = (list: z.infer<typeof SiteSpaceConfig>[], k: number) => {
    // Made at the list's first default: most lists have none (a closure per section, 16,600 in
    // a config of 100k resources, for nothing; issue 33).
    let def: ReturnType<typeof oneDefault> | undefined;
    for (let i = 0; i < list.length; i += 1) {
      const s = list[i]!;
      const seen = spaceSeen.count(s.space);
      if (seen !== 0) {
        if (seen === 1) siteSpaces(s.space, firstSpaceAt(site, s.space));
        siteSpaces(s.space, [...spacesAt(k), i, 'space']);
      }
      if (s.default)
        (def ??= oneDefault(on, 'site space of a section'))(s.default, [...spacesAt(k), i, 'default']);
    }
    // A site space path is unique in its list (a section's, or the root's), as the API keeps it.
    const repeats = repeatsIn(list, (s) => s.path);
    if (repeats)
      reportRepeats(
        on.unique('site space path'),
        repeats,
        (j) => list[j]!.path!,
        (j) => [...spacesAt(k), j, 'path'],
      );
  };
  const defaultSection = oneDefault(on, 'section of a site');
  const sections = site.sections ?? [];
  const pathRepeats = repeatsIn(sections, (s) => s.path);
  if (pathRepeats)
    reportRepeats(
      on.unique('section path'),
      pathRepeats,
      (i) => sections[i]!.path,
      (i) => ['sections', i, 'path'],
    );
  for (let i = 0; i < sections.length; i += 1) {
    const section = sections[i]!;
    if (section.default) defaultSection(section.default, ['sections', i, 'default']);
    if (section.spaces.length === 0)
      on.report(
        ['sections', i, 'spaces'],
        'a section needs at least one space (the API creates a section from a space)',
        'empty-section',
      );
    spaces(section.spaces, i);
  }
  if (site.spaces) spaces(site.spaces, -1);
  if (site.sectionGroups) checkGroups(site, site.sectionGroups, on);
}

/** The checks of a site's section groups (its sections' paths known). */
function checkGroups(
  site: StructureConfig,
  groups: NonNullable<StructureConfig['sectionGroups']>,
  on: EntryChecks,
): void {
  const groupTitles = on.unique('section group');
  const groupIds = on.unique('section group id');
  const grouped = on.unique('grouped section');
  const known = new Set(site.sections?.map((s) => s.path) ?? []);
  groups.forEach((g, i) => {
    if (g.id) groupIds(g.id, ['sectionGroups', i, 'id']);
    else groupTitles(g.title, ['sectionGroups', i, 'title']);
    g.sections?.forEach((p, j) => {
      const path = ['sectionGroups', i, 'sections', j];
      if (!known.has(p)) on.report(path, `no section with path "${p}" in this site`, 'unknown-reference');
      else grouped(p, path);
    });
  });
  for (const [i, message] of nestingIssues(groups))
    on.report(['sectionGroups', i, 'parent'], message, 'unknown-reference');
}

/** The path of `space`'s first site space in `site` (sections in order, then the root spaces). */
function firstSpaceAt(site: StructureConfig, space: string): (string | number)[] {
  const sections = site.sections ?? [];
  for (let k = 0; k < sections.length; k += 1) {
    const i = sections[k]!.spaces.findIndex((s) => s.space === space);
    if (i !== -1) return ['sections', k, 'spaces', i, 'space'];
  }
  return ['spaces', (site.spaces ?? []).findIndex((s) => s.space === space), 'space'];
}

/**
 * What an entry's structure holds that something may be placed in or after (an external link): its
 * groups' titles, and by name each section's (path) and group's (title) type and level ('' for the
 * root, else a group's title), as the config says.
 */
export function structureNames(site: StructureConfig): StructureNames {
  const named = new Map<string, { type: string; level: string }[]>();
  const add = (name: string, type: string, level: string) =>
    named.set(name, [...(named.get(name) ?? []), { type, level }]);
  for (const sec of site.sections ?? [])
    add(
      sec.path,
      'site-section',
      site.sectionGroups?.find((g) => g.sections?.includes(sec.path))?.title ?? '',
    );
  for (const g of site.sectionGroups ?? []) add(g.title, 'site-section-group', g.parent ?? '');
  return { groups: new Set(site.sectionGroups?.map((g) => g.title) ?? []), named };
}

/** What the reference says of the structure's keys (decision 0020). */
export const structureDocs: Record<string, KindDoc> = {
  'sites[].sections[]': {
    title: 'sections',
    identity: '`path` within the site',
    notes: [
      'The API creates a section from a space, so a section has at least one site space. A section whose path changes keeps its site spaces: docsync pairs it with the live section that holds its spaces. Two sections may exchange paths; the plan goes through a temporary path.',
    ],
  },
  'sites[].sections[].spaces[]': {
    title: 'site spaces of a section',
    identity: '`space` within the site (a space appears once per site)',
    notes: ['`path` is unique within its section; at most one site space per section is `default`.'],
  },
  'sites[].sectionGroups[]': {
    title: 'section groups',
    identity: '`title` within the site',
    notes: [
      'Each of `sections` must be a section of this site, in one group at most.',
      "`parent` (current API) nests a group in another group of the same list, by title (no cycles; the seed flavor refuses the key). A new group is created in its parent (`parent`), parents first; a group moved into another group (or to the root with `parent: null`) is one update (`parentSectionGroupId`) and goes last there; groups keep the list's order among their siblings. A deleted group is deleted after the groups nested in it, and after those the config moves out of it.",
    ],
  },
  'sites[].spaces[]': {
    title: 'root site spaces',
    identity: '`space` within the site',
    notes: ['For a site without sections (a site has sections or root site spaces, not both).'],
  },
  ...siteSpaceCustomizationDocs('sites[].sections[].spaces[].customization'),
  ...siteSpaceCustomizationDocs('sites[].spaces[].customization'),
};

/** A site space's customization overrides: the keys of the site's `customization` (decision 0037). */
function siteSpaceCustomizationDocs(path: string): Record<string, KindDoc> {
  return {
    [path]: {
      title: 'customization overrides (sparse)',
      notes: [
        "The site space's overrides of the site's customization (current API): the keys of `sites[].customization`, managed the same way (only the keys given; the plan shows each changed key by its path; apply sends only those).",
      ],
    },
    ...nestedDocs(path, CustomizationConfig),
  };
}
