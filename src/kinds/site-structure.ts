import { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { NavSlot, SiteScope } from '../diff/site-scope.js';
import { diffGroups } from './section-group-diff.js';
import { diffStructure } from './site-structure-diff.js';
import { keptStructure, structureAsLive } from './site-structure-kept.js';
import {
  groupMembershipKind,
  sectionGroupKind,
  SiteSectionGroup,
  type GroupMembershipOp,
  type SectionGroupOp,
} from './section-group.js';
import { sectionKind, SiteSection, type SectionOp, type SectionSlot } from './site-section.js';
import { SITE_SPACE_CUSTOMIZATION, SiteSpace, siteSpaceKind, type SiteSpaceOp } from './site-space.js';
import { callBelow, listBelow, type ApiList, type ChildRead } from './types.js';
import { pick, shuffle, type Random } from './examples.js';
import { holeyCopy, mapHoley } from '../model/holey.js';
import { withField } from '../model/with-field.js';
import type {
  DesiredSiteSpace,
  DesiredStructure,
  LiveSection,
  LiveSiteSpace,
  LiveStructure,
} from './site-section.js';

/**
 * A site's structure: its sections, section groups and site spaces (the navigation). Each has its
 * operations in its own module; this one declares the config keys they take in a site, their
 * normalization, checks, reads, export and diff step, for the site module (site.ts) to include.
 */
export {
  checkStructure,
  normalizeStructure,
  structureAbsentKeys,
  structureDocs,
  structureNames,
  structureShape,
} from './site-structure-config.js';
export { exportedNames, exportStructure } from './site-structure-export.js';
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

/**
 * The localized text of a section the API gives none of (most): one shared empty object, frozen,
 * instead of two new ones per section that live as long as the live model (issue 33: each object
 * that survives a scavenge is copied by it). Nothing writes into a live model's texts.
 */
const NO_LOCALIZED: Record<string, string> = Object.freeze({}) as Record<string, string>;

const liveSection = (s: SiteSection): LiveSection => ({
  id: s.id,
  path: s.path,
  title: s.title,
  icon: s.icon ?? null,
  description: s.description ?? null,
  condition: s.condition ?? null,
  default: s.default ?? false,
  draft: s.draft ?? false,
  localizedTitle: s.localizedTitle ?? NO_LOCALIZED,
  localizedDescription: s.localizedDescription ?? NO_LOCALIZED,
  group: s.sectionGroup ?? null,
  // Holey whether or not the read is optimized: the diff reads every section's (model/holey.ts).
  spaces: liveSiteSpaces(s.siteSpaces),
});

/**
 * A section's live site spaces, as `mapHoley` makes them, in a loop of its own: `mapHoley`'s call
 * of its function meets every caller's function, so it calls this one without inlining it (every
 * section of a read, issue 33).
 */
function liveSiteSpaces(list: readonly SiteSpace[]): LiveSiteSpace[] {
  const out = new Array<LiveSiteSpace>(list.length);
  for (let i = 0; i < list.length; i += 1) out[i] = liveSiteSpace(list[i]!);
  return out;
}

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
export function givesOverrides(d: DesiredStructure): boolean {
  // Walked in place, in loops of their own (asked up to three times a site while its reads start:
  // a closure called per site space was 200 calls a site, issue 33).
  for (const s of d.sections ?? []) if (overrideIn(s.spaces)) return true;
  return overrideIn(d.spaces ?? []);
}

function overrideIn(spaces: readonly DesiredSiteSpace[]): boolean {
  for (let k = 0; k < spaces.length; k += 1) if (spaces[k]!.customization !== undefined) return true;
  return false;
}

/** The site spaces a config entry gives customization overrides for, by space id. */
function overriddenSpaces(d: DesiredStructure): Set<string> {
  const spaces = new Set<string>();
  // Most entries give none: looked for first, without adding.
  if (!givesOverrides(d)) return spaces;
  for (const s of d.sections ?? []) addOverridden(s.spaces, spaces);
  addOverridden(d.spaces ?? [], spaces);
  return spaces;
}

function addOverridden(list: readonly DesiredSiteSpace[], spaces: Set<string>): void {
  for (const ss of list) if (ss.customization !== undefined) spaces.add(ss.space);
}

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
    // An entry without overrides (most): no live site space is looked at.
    if (wanted?.size === 0) return [];
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
                ? {
                    sections: mapHoley(l.sections, (sec) => ({
                      ...sec,
                      spaces: mapHoley(sec.spaces, set),
                    })),
                  }
                : {}),
              ...(l.spaces ? { spaces: mapHoley(l.spaces, set) } : {}),
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
      // Copied holey: the read's arrays are packed or holey as it is optimized or not (model/holey.ts).
      attach: (site: L, sections: LiveSection[]) => withField(site, 'sections', holeyCopy(sections)),
      then: overrideReads<L>(ofSections),
    }),
    listBelow({
      wanted: wants((d) => d.sectionGroups !== undefined),
      list: below('section-groups', SiteSectionGroup),
      attach: (site: L, items: SiteSectionGroup[]) =>
        withField(
          site,
          'sectionGroups',
          items.map((g) => ({
            id: g.id,
            title: g.title,
            icon: g.icon ?? null,
            draft: g.draft ?? false,
            localizedTitle: g.localizedTitle ?? {},
            parent: g.sectionGroup ?? null,
          })),
        ),
    }),
    listBelow({
      wanted: wants((d) => d.spaces !== undefined),
      list: below('site-spaces', SiteSpace),
      // The site's root site spaces (those of sections come with their section).
      attach: (site: L, items: SiteSpace[]) =>
        withField(
          site,
          'spaces',
          mapHoley(
            items.filter((ss) => !ss.section),
            liveSiteSpace,
          ),
        ),
      then: overrideReads<L>(atRoot),
    }),
  ];
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
  const slots = d.sections || d.spaces ? structureSlots(ctx, site, title, d, l, siteDoc) : [];
  const groups = d.sectionGroups ? diffGroups(ctx, site, title, d, l, slots) : new Map<string, NavSlot>();
  setSiteNav(site, slots, groups);
}

/**
 * What an external link may be placed in or after, by name (sections first), on the site's scope.
 * Made only where external links are diffed, its one reader (issue 33: an object per section).
 */
export function setSiteNav(
  site: SiteScope,
  slots: readonly SectionSlot[],
  groups: Map<string, NavSlot>,
): void {
  if (!site.navRead) return;
  const items = new Map<string, NavSlot & { type: string }>();
  for (const [title, g] of groups) items.set(title, { ...g, type: 'site-section-group' });
  for (const s of slots)
    items.set(s.d.path, { ref: s.ref, liveId: s.l?.id, createKey: s.createKey, type: 'site-section' });
  site.nav = { items, groups };
}

/**
 * The sections and site spaces' diff: nothing to plan for a structure that reads as its live twin
 * (site-structure-kept.ts), else the full diff.
 */
function structureSlots(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
  siteDoc: Record<string, unknown> | undefined,
): SectionSlot[] {
  if (l && structureAsLive(d, l))
    return keptStructure(ctx, site, d, l, d.sectionGroups !== undefined || site.navRead === true);
  return diffStructure(ctx, site, title, d, l, siteDoc);
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
