import { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { NavSlot, SiteScope } from '../diff/site-scope.js';
import { defined, duplicatesOf, localized, pin, previously } from './fields.js';
import { brokenLinksPolicies } from '../diff/site-paths.js';
import { diffGroups } from './section-group-diff.js';
import { diffStructure } from './site-structure-diff.js';
import {
  groupMembershipKind,
  sectionGroupKind,
  SiteSectionGroup,
  type GroupMembershipOp,
  type SectionGroupOp,
} from './section-group.js';
import { sectionKind, SiteSection, type SectionOp } from './site-section.js';
import { SITE_SPACE_CUSTOMIZATION, SiteSpace, siteSpaceKind, type SiteSpaceOp } from './site-space.js';
import { CUSTOMIZATION_ATOMIC, CustomizationConfig, OverridesConfig } from './site-customization.js';
import { nestedDocs, nonDefault } from './sparse.js';
import { callBelow, listBelow, type ApiList, type ChildRead, type KindDoc } from './types.js';
import type { EntryChecks } from './shapes.js';
import { pick, shuffle, type Random } from './examples.js';
import type {
  DesiredSection,
  DesiredSectionGroup,
  DesiredSiteSpace,
  DesiredStructure,
  LiveSection,
  LiveSectionGroup,
  LiveSiteSpace,
  LiveStructure,
} from './site-section.js';
import { nestingIssues } from './section-group-nesting.js';
import type { StructureNames } from './external-link-place.js';

/**
 * A site's structure: its sections, section groups and site spaces (the navigation). Each has its
 * operations in its own module; this one declares the config keys they take in a site, their
 * normalization, checks, reads, export and diff step, for the site module (site.ts) to include.
 */
export const structureKinds = [sectionKind, sectionGroupKind, groupMembershipKind, siteSpaceKind] as const;
export type StructureOp = SectionOp | SectionGroupOp | GroupMembershipOp | SiteSpaceOp;

export type {
  DesiredSection,
  DesiredSectionGroup,
  DesiredSiteSpace,
  DesiredStructure,
  LiveSection,
  LiveSectionGroup,
  LiveSiteSpace,
  LiveStructure,
} from './site-section.js';

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
type StructureConfig = { [K in keyof typeof structureShape]?: z.infer<(typeof structureShape)[K]> };

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

/** A section's keys before `spaces`, in the order the desired state lists them. */
const SECTION_KEYS = [
  'path',
  'title',
  'icon',
  'description',
  'condition',
  'default',
  'draft',
  'localizedTitle',
  'localizedDescription',
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

const siteSpace = (s: z.infer<typeof SiteSpaceConfig>): DesiredSiteSpace =>
  pickDefined(s, SITE_SPACE_KEYS, { space: s.space }) as DesiredSiteSpace;

const section = (sec: z.infer<typeof SectionConfig>): DesiredSection => {
  const out = pickDefined(sec, SECTION_KEYS, {});
  out['spaces'] = sec.spaces.map(siteSpace);
  return out as DesiredSection;
};

export function normalizeStructure(s: StructureConfig): DesiredStructure {
  return defined({
    sections: s.sections?.map(section),
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
    spaces: s.spaces?.map(siteSpace),
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

/** Checks of a site's structure that its schema cannot express. */
export function checkStructure(site: StructureConfig, on: EntryChecks): void {
  const paths = on.unique('section path');
  const siteSpaces = on.unique('site space for space');
  if (site.sections && site.sections.length > 0 && site.spaces && site.spaces.length > 0)
    on.report(['spaces'], 'a site has either sections or root spaces, not both', 'sections-and-spaces', true);
  // Where each space first appears: its path is built (and handed to `siteSpaces`) only when the
  // space appears again, so a site without duplicates builds no path per site space.
  const firstAt = new Map<string, { at: (string | number)[]; i: number } | null>();
  const spaces = (list: z.infer<typeof SiteSpaceConfig>[], at: (string | number)[]) => {
    const def = oneDefault(on, 'site space of a section');
    for (let i = 0; i < list.length; i += 1) {
      const s = list[i]!;
      const first = firstAt.get(s.space);
      if (first === undefined) firstAt.set(s.space, { at, i });
      else {
        if (first) siteSpaces(s.space, [...first.at, first.i, 'space']);
        firstAt.set(s.space, null);
        siteSpaces(s.space, [...at, i, 'space']);
      }
      if (s.default) def(s.default, [...at, i, 'default']);
    }
  };
  const defaultSection = oneDefault(on, 'section of a site');
  site.sections?.forEach((section, i) => {
    paths(section.path, ['sections', i, 'path']);
    if (section.default) defaultSection(section.default, ['sections', i, 'default']);
    if (section.spaces.length === 0)
      on.report(
        ['sections', i, 'spaces'],
        'a section needs at least one space (the API creates a section from a space)',
        'empty-section',
      );
    spaces(section.spaces, ['sections', i, 'spaces']);
  });
  if (site.spaces) spaces(site.spaces, ['spaces']);
  const groupTitles = on.unique('section group');
  const groupIds = on.unique('section group id');
  const grouped = on.unique('grouped section');
  const known = new Set(site.sections?.map((s) => s.path) ?? []);
  site.sectionGroups?.forEach((g, i) => {
    if (g.id) groupIds(g.id, ['sectionGroups', i, 'id']);
    else groupTitles(g.title, ['sectionGroups', i, 'title']);
    g.sections?.forEach((p, j) => {
      const path = ['sectionGroups', i, 'sections', j];
      if (!known.has(p)) on.report(path, `no section with path "${p}" in this site`, 'unknown-reference');
      else grouped(p, path);
    });
  });
  if (site.sectionGroups)
    for (const [i, message] of nestingIssues(site.sectionGroups))
      on.report(['sectionGroups', i, 'parent'], message, 'unknown-reference');
}

const liveSiteSpace = (ss: SiteSpace): LiveSiteSpace => ({
  id: ss.id,
  space: ss.space.id,
  path: ss.path,
  condition: ss.condition ?? null,
  default: ss.default ?? false,
  draft: ss.draft ?? false,
  hidden: ss.hidden ?? false,
  pageId: ss.pageId ?? null,
});

const liveSection = (s: SiteSection): LiveSection => ({
  id: s.id,
  path: s.path,
  title: s.title,
  icon: s.icon ?? null,
  description: s.description ?? null,
  condition: s.condition ?? null,
  default: s.default ?? false,
  draft: s.draft ?? false,
  localizedTitle: s.localizedTitle ?? {},
  localizedDescription: s.localizedDescription ?? {},
  group: s.sectionGroup ?? null,
  spaces: s.siteSpaces.map(liveSiteSpace),
});

type Parent = { id: string };
const below =
  <A>(rest: string, item: z.ZodType<A>) =>
  (org: string, site: Parent): ApiList<A> => ({
    route: `/orgs/{org}/sites/{site}/${rest}`,
    params: { org, site: site.id },
    item,
  });

/** The config entry a live site pairs with (undefined: the config does not describe it). */
export type EntryOf<L, D> = (site: L) => D | undefined;

/** The live site spaces a read attached: those of the sections, or the root ones. */
const ofSections = (l: LiveStructure): LiveSiteSpace[] => (l.sections ?? []).flatMap((s) => s.spaces);
const atRoot = (l: LiveStructure): LiveSiteSpace[] => l.spaces ?? [];

/**
 * Whether a site space entry gives `customization` (values, keys given as null, or null): its plan
 * compares with the site's customization (an override is what differs from it; a key reset by null
 * goes back to it) and completes a value the PATCH takes whole from it (a new site space shows
 * the site's), so that is read even when the site's entry does not manage it.
 */
export const givesOverrides = (d: DesiredStructure): boolean =>
  [...(d.sections ?? []).flatMap((s) => s.spaces), ...(d.spaces ?? [])].some(
    (ss) => ss.customization !== undefined,
  );

/** The site spaces a config entry gives customization overrides for, by space id. */
const overriddenSpaces = (d: DesiredStructure): Set<string> =>
  new Set(
    [...(d.sections ?? []).flatMap((s) => s.spaces), ...(d.spaces ?? [])]
      .filter((ss) => ss.customization !== undefined)
      .map((ss) => ss.space),
  );

const OverridesAnswer = z.looseObject({ updatedAt: z.string().optional() });

/** The site's customization answer without what is not the document (`updatedAt`). */
const overridesDocument = (answer: unknown): Record<string, unknown> => {
  const { updatedAt: _updatedAt, ...doc } = (answer ?? {}) as Record<string, unknown>;
  return doc;
};

/**
 * One GET of customization per site space whose entry gives `customization` (every one, for
 * export), once the structure's read named their ids; today's API only.
 */
function overrideReads<L extends Parent>(attached: (l: LiveStructure) => LiveSiteSpace[]) {
  return (site: L, entryOf: EntryOf<L, DesiredStructure> | undefined): ChildRead<L, unknown>[] => {
    const d = entryOf ? entryOf(site) : undefined;
    if (entryOf && d === undefined) return [];
    const wanted = d ? overriddenSpaces(d) : undefined;
    return attached(site as LiveStructure)
      .filter((ss) => !wanted || wanted.has(ss.space))
      .map((ss) =>
        callBelow<L, unknown>({
          absentIn: ['seed'],
          wanted: () => true,
          call: (org: string, s: L) => ({
            method: 'GET',
            route: SITE_SPACE_CUSTOMIZATION,
            params: { org, site: s.id, siteSpace: ss.id },
            expect: [200],
            answer: OverridesAnswer,
          }),
          attach: (s: L, answer: unknown) => {
            const doc = overridesDocument(answer);
            const set = (x: LiveSiteSpace) => (x.id === ss.id ? { ...x, customization: doc } : x);
            const l = s as L & LiveStructure;
            return {
              ...s,
              ...(l.sections
                ? { sections: l.sections.map((sec) => ({ ...sec, spaces: sec.spaces.map(set) })) }
                : {}),
              ...(l.spaces ? { spaces: l.spaces.map(set) } : {}),
            };
          },
        }),
      );
  };
}

/** The reads of a site's structure, for the parts its config entry manages. */
export function structureReads<L extends Parent>(): ChildRead<L, EntryOf<L, DesiredStructure>>[] {
  const wants =
    (pick: (d: DesiredStructure) => boolean) => (site: L, entryOf: EntryOf<L, DesiredStructure>) => {
      const d = entryOf(site);
      return d !== undefined && pick(d);
    };
  return [
    listBelow({
      // A group's memberships are fields of its sections.
      wanted: wants((d) => d.sections !== undefined || d.sectionGroups !== undefined),
      // Each section is made live as its page arrives: the page, with the whole space of each site
      // space, is dropped at once (decision 42).
      list: (org: string, site: Parent) => ({
        ...below('sections', SiteSection)(org, site),
        live: liveSection,
      }),
      attach: (site: L, sections: LiveSection[]) => ({ ...site, sections }),
      then: overrideReads<L>(ofSections),
    }),
    listBelow({
      wanted: wants((d) => d.sectionGroups !== undefined),
      list: below('section-groups', SiteSectionGroup),
      attach: (site: L, items: SiteSectionGroup[]) => ({
        ...site,
        sectionGroups: items.map((g) => ({
          id: g.id,
          title: g.title,
          icon: g.icon ?? null,
          draft: g.draft ?? false,
          localizedTitle: g.localizedTitle ?? {},
          parent: g.sectionGroup ?? null,
        })),
      }),
    }),
    listBelow({
      wanted: wants((d) => d.spaces !== undefined),
      list: below('site-spaces', SiteSpace),
      // The site's root site spaces (those of sections come with their section).
      attach: (site: L, items: SiteSpace[]) => ({
        ...site,
        spaces: items.filter((ss) => !ss.section).map(liveSiteSpace),
      }),
      then: overrideReads<L>(atRoot),
    }),
  ];
}

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

/** The structure's diff step: sections and site spaces, then groups and memberships. */
export function diffSiteStructure(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
  /** The site's live customization, when read (a site space's overrides differ from it). */
  siteDoc?: Record<string, unknown>,
): void {
  const slots = d.sections || d.spaces ? diffStructure(ctx, site, title, d, l, siteDoc) : [];
  const groups = d.sectionGroups ? diffGroups(ctx, site, title, d, l, slots) : new Map<string, NavSlot>();
  // Made only where external links are diffed, its one reader (issue 33: an object per section).
  if (!site.navRead) return;
  // What an external link may be placed in or after, by name (sections first).
  const items = new Map<string, NavSlot & { type: string }>();
  for (const [title, g] of groups) items.set(title, { ...g, type: 'site-section-group' });
  for (const s of slots)
    items.set(s.d.path, { ref: s.ref, liveId: s.l?.id, createKey: s.createKey, type: 'site-section' });
  site.nav = { items, groups };
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

/** The test organization's spaces (examples): `space_1` … `space_12`. */
const EXAMPLE_SPACES = Array.from({ length: 12 }, (_, i) => `space_${i + 1}`);
const EXAMPLE_PATHS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Random sections (their paths, titles and site spaces, in random order), for the site's examples. */
function randomSections(r: Random) {
  const spaces = shuffle(r, EXAMPLE_SPACES).slice(0, 2 + Math.floor(r() * 8));
  const paths = shuffle(r, EXAMPLE_PATHS).slice(0, 1 + Math.floor(r() * Math.min(4, spaces.length)));
  const sections = paths.map((path) => ({
    path,
    title: `Section ${path.toUpperCase()}${r() < 0.3 ? ' v2' : ''}`,
    spaces: [] as { space: string; path?: string; default?: boolean }[],
  }));
  spaces.forEach((space, i) =>
    sections[i % sections.length]!.spaces.push({
      space,
      ...(r() < 0.5 ? { path: `p-${space.slice(6)}${r() < 0.3 ? 'x' : ''}` } : {}),
    }),
  );
  for (const s of sections) if (r() < 0.4) pick(r, s.spaces).default = true;
  return sections.filter((s) => s.spaces.length > 0);
}

/** A random structure of a site's config entry: sections, a default one, icons, groups. */
export function randomStructure(r: Random) {
  const sections = randomSections(r);
  const groupPaths = shuffle(
    r,
    sections.map((s) => s.path),
  );
  return {
    sections: sections.map((s, i) => ({
      ...s,
      ...(i === 0 && r() < 0.5 ? { default: true } : {}),
      ...(r() < 0.3 ? { icon: pick(r, ['book', null]) } : {}),
    })),
    ...(r() < 0.6
      ? {
          sectionGroups: [
            { title: 'G1', sections: groupPaths.slice(0, 1) },
            { title: 'G2', sections: groupPaths.slice(1, 2) },
          ].slice(0, 1 + Math.floor(r() * 2)),
        }
      : {}),
  };
}

/** A random live structure of a site, as emulator seed fields, over the same paths and spaces. */
export function randomLiveStructure(r: Random) {
  return {
    sections: randomSections(r).map((s) => ({
      title: s.title,
      path: s.path,
      siteSpaces: s.spaces.map((x) => ({ space: x.space, ...(x.path ? { path: x.path } : {}) })),
    })),
    sectionGroups: r() < 0.5 ? [{ title: 'G1' }, { title: 'Old group' }] : [],
  };
}
