import { z } from 'zod';
import { nullish } from '../model/schema.js';
import { mapHoley } from '../model/holey.js';
import { Localized } from './fields.js';
import { SiteSpace, siteSpaceAddress } from './site-space.js';
import type { Patch, Position, Ref } from '../model/change.js';
import { liveRef } from '../diff/draft.js';
import type { Renamable } from '../model/desired.js';
import type { BrokenLinksPolicy } from '../diff/site-paths.js';
import { deleteCall, structureMove, type KindModule, type OpOutput } from './types.js';

/** The API's answer for one (lenient: unknown fields allowed). */
export const SiteSection = z.looseObject({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  description: nullish(z.string()),
  default: nullish(z.boolean()),
  condition: nullish(z.string()),
  sectionGroup: nullish(z.string()),
  icon: nullish(z.string()),
  draft: nullish(z.boolean()),
  localizedTitle: nullish(Localized),
  localizedDescription: nullish(Localized),
  siteSpaces: z.array(SiteSpace).default([]),
});
export type SiteSection = z.infer<typeof SiteSection>;

export type SectionOp =
  | { type: 'create-section'; org: string; site: Ref; spaceId: string; title?: string; draft?: boolean }
  | { type: 'update-section'; org: string; site: Ref; section: Ref; patch: Patch }
  | { type: 'delete-section'; org: string; site: Ref; section: Ref }
  | { type: 'move-section'; org: string; site: Ref; section: Ref; position: Position };

const LIST = '/orgs/{org}/sites/{site}/sections';
/** A section's own route (a group's membership is a field of it in today's API). */
export const sectionRoute = '/orgs/{org}/sites/{site}/sections/{section}';
const ROUTE = sectionRoute;

/**
 * How the API names a section, a site space or a page of one as the destination of a site redirect
 * (`SiteRedirectDestination`), and what such a destination names.
 */
export const StructureTarget = z.union([
  z.looseObject({ kind: z.literal('site-section'), siteSectionId: z.string() }),
  z.looseObject({ kind: z.literal('site-space'), siteSpaceId: z.string() }),
  z.looseObject({ kind: z.literal('site-page'), siteSpaceId: z.string(), pageId: z.string() }),
]);
export type StructureTarget = z.infer<typeof StructureTarget>;

/** A destination naming a section (`section`) or a site space (or its page); `id` may be a reference. */
export function structureTarget(section: boolean, id: unknown, page?: string): Record<string, unknown> {
  if (section) return { kind: 'site-section', siteSectionId: id };
  return page === undefined
    ? { kind: 'site-space', siteSpaceId: id }
    : { kind: 'site-page', siteSpaceId: id, pageId: page };
}

/** The section or site space a destination names (for a page, its site space). */
export const targetIdOf = (d: StructureTarget): string =>
  d.kind === 'site-section' ? d.siteSectionId : d.siteSpaceId;

/** A section's address in the plan. */
export const sectionAddress = (site: string, path: string) => `${site}/sections/${path}`;

/** The address of a space's entry in a site: in the section at `path`, or at the site's root. */
export const placedAddress = (site: string, path: string | undefined, space: string) =>
  siteSpaceAddress(path === undefined ? site : sectionAddress(site, path), space);

/** A created section yields its id and the id of its first site space (`siteSpace:<spaceId>`). */
function sectionOutput(section: SiteSection): OpOutput {
  const out: OpOutput = { id: section.id };
  for (const ss of section.siteSpaces) out[`siteSpace:${ss.space.id}`] = ss.id;
  return out;
}

/** A section of a site, by path; the API creates it from a space. */
export const sectionKind: KindModule<SectionOp, 'site-section'> = {
  kind: 'site-section',
  ops: {
    'create-section': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: {
          spaceId: op.spaceId,
          ...(op.title !== undefined ? { title: op.title } : {}),
          ...(op.draft ? { draft: true } : {}),
        },
        expect: [201],
        answer: SiteSection,
        create: true,
      }),
      output: sectionOutput,
      adopt: {
        list: (op, r) => ({ route: LIST, params: { org: op.org, site: r.ref(op.site) }, item: SiteSection }),
        find: (s: SiteSection, op) => s.siteSpaces.some((ss) => ss.space.id === op.spaceId),
        output: sectionOutput,
      },
    },
    'update-section': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), section: r.ref(op.section) },
        body: r.patch(op.patch),
        expect: [200, 204],
      }),
    },
    'delete-section': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), section: r.ref(op.section) }, caps),
    },
    'move-section': {
      call: (op, r, caps) =>
        structureMove(
          caps,
          r,
          { org: op.org, site: op.site, item: op.section, position: op.position },
          { type: 'site-section' },
          {
            route: '/orgs/{org}/sites/{site}/sections/{section}/move',
            param: 'section',
            type: 'site-section',
            key: 'siteSection',
          },
        ),
    },
  },
};

/** A desired section, the live one it is paired with (if any), and how to reference it. */
export type SectionSlot = {
  d: DesiredSection;
  l: LiveSection | undefined;
  ref: Ref;
  addr: string;
  createKey?: string;
};

/** Whether a desired section and a live one hold a space in common. */
function sharesSpace(desired: readonly { space: string }[], live: readonly { space: string }[]): boolean {
  // A few spaces a section (most): compared pairwise, no set made (issue 33: allocation).
  if (desired.length * live.length <= 64) {
    for (const ss of live) for (const ds of desired) if (ds.space === ss.space) return true;
    return false;
  }
  const spaces = new Set<string>();
  for (const ds of desired) spaces.add(ds.space);
  for (const ss of live) if (spaces.has(ss.space)) return true;
  return false;
}

/**
 * Pair desired sections with live ones. Path is the identity, but a section keeps its spaces:
 * first pair a path with the live section at that path when they share a space (or it has none);
 * then pair what is left by a shared space (the section's path changed, or two paths were
 * exchanged); then by path alone. A renamed section cannot take a path that a section left alone
 * (prune off) keeps: it is paired with the section at its path instead, and the section it gave
 * up can then pair by a shared space, until nothing changes.
 */
export function pairSections(
  desired: DesiredSection[],
  liveSections: LiveSection[],
  prune: boolean,
  addressOf: (path: string) => string,
): { slots: SectionSlot[]; used: Set<LiveSection> } {
  const used = new Set<LiveSection>();
  // Holey whether or not this is optimized: the structure diff's steps walk it (model/holey.ts).
  const slots: SectionSlot[] = mapHoley(desired, (ds) => ({
    d: ds,
    l: undefined,
    ref: { id: '' },
    addr: addressOf(ds.path),
  }));
  const byPath = new Map<string, LiveSection>();
  for (const ls of liveSections) byPath.set(ls.path, ls);
  const shares = (slot: SectionSlot, ls: LiveSection) => sharesSpace(slot.d.spaces, ls.spaces);
  const pair = (slot: SectionSlot, ls: LiveSection) => {
    used.add(ls);
    slot.l = ls;
    slot.ref = liveRef(ls.id);
  };
  for (const slot of slots) {
    const match = byPath.get(slot.d.path);
    if (match && (shares(slot, match) || match.spaces.length === 0)) pair(slot, match);
  }
  // Pair what is left by a shared space; true when that paired a section.
  const pairByShare = () => {
    let paired = false;
    for (const slot of slots) {
      const match = slot.l ? undefined : liveSections.find((ls) => !used.has(ls) && shares(slot, ls));
      if (match) {
        pair(slot, match);
        paired = true;
      }
    }
    return paired;
  };
  pairByShare();
  for (let changed = true; changed;) {
    changed = false;
    for (const slot of slots) {
      const holder = byPath.get(slot.d.path);
      if (!holder || used.has(holder) || slot.l === holder) continue;
      if (slot.l && prune) continue;
      if (slot.l) used.delete(slot.l);
      pair(slot, holder);
      changed = true;
    }
    // A section given up for the one at its path (prune off) may share a space with a section
    // still unpaired: pair them now, as the next run would once the first holds its spaces.
    if (!changed) changed = pairByShare();
  }
  return { slots, used };
}

/**
 * A site's structure as the diff sees it, desired and live: the model the structure's modules
 * (site-structure.ts, its diff steps, sections and groups) share. Here, beside the sections, so
 * that site-structure.ts (which includes the diff steps) is imported by none of them.
 */

/** Localized overrides of a text, by language (today's API): `{ fr: Guides }`. */
export type LocalizedText = Record<string, string>;

export type DesiredSiteSpace = {
  space: string;
  path?: string;
  condition?: string | null;
  default?: boolean;
  /** Today's API: a draft is not live; hidden is left out of the navigation; pageId is its home page. */
  draft?: boolean;
  hidden?: boolean;
  pageId?: string | null;
  /** Today's API: its customization overrides, sparse (the keys given only; decision 0037). */
  customization?: Record<string, unknown> | null;
  /** What a plan that changes its published path does, over `policy.brokenLinks` (decision 36). */
  brokenLinks?: BrokenLinksPolicy;
};
export type DesiredSection = {
  path: string;
  /** Omitted: the platform's default on creation (the first space's title), unmanaged afterwards. */
  title?: string;
  icon?: string | null;
  description?: string | null;
  condition?: string | null;
  default?: boolean;
  draft?: boolean;
  localizedTitle?: LocalizedText;
  localizedDescription?: LocalizedText;
  /** What a plan that changes its published path does, over `policy.brokenLinks` (decision 36). */
  brokenLinks?: BrokenLinksPolicy;
  spaces: DesiredSiteSpace[];
};
export type DesiredSectionGroup = Renamable & {
  title: string;
  icon?: string | null;
  draft?: boolean;
  localizedTitle?: LocalizedText;
  /** Today's API: the title of the group it is nested in; null: the site's root; omitted: unmanaged. */
  parent?: string | null;
  /** Paths of the member sections; omitted: the group's memberships are unmanaged. */
  sections?: string[];
};
/** A list that is `undefined` is not managed (desired) or not read (live). */
export type DesiredStructure = {
  sections?: DesiredSection[];
  sectionGroups?: DesiredSectionGroup[];
  spaces?: DesiredSiteSpace[];
};

export type LiveSiteSpace = {
  id: string;
  space: string;
  path: string;
  condition: string | null;
  default: boolean;
  draft: boolean;
  hidden: boolean;
  pageId: string | null;
  /** Its customization as the API answers it (the site's, overrides set); read only when managed. */
  customization?: Record<string, unknown>;
};
export type LiveSection = {
  id: string;
  path: string;
  title: string;
  icon: string | null;
  description: string | null;
  condition: string | null;
  default: boolean;
  draft: boolean;
  localizedTitle: LocalizedText;
  localizedDescription: LocalizedText;
  group: string | null;
  spaces: LiveSiteSpace[];
};
export type LiveSectionGroup = {
  id: string;
  title: string;
  icon: string | null;
  draft: boolean;
  localizedTitle: LocalizedText;
  /** The id of the group it is nested in (null: the site's root). */
  parent: string | null;
};
export type LiveStructure = {
  sections?: LiveSection[];
  sectionGroups?: LiveSectionGroup[];
  spaces?: LiveSiteSpace[];
};
