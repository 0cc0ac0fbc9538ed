import { SET_AFTER_CREATION } from '../model/index.js';
import { mapHoley } from '../model/holey.js';
import {
  pairSections,
  sectionAddress,
  type DesiredStructure,
  type LiveSection,
  type LiveStructure,
  type SectionOp,
  type SectionSlot,
} from './site-section.js';
import type { SiteSpaceOp } from './site-space.js';
import { countLive, warn, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, liveRef } from '../diff/draft.js';
import { addMoves } from '../diff/order.js';
import type { SiteScope } from '../diff/site-scope.js';
import { newStructure, type Container, type SpacePlacement, type Structure } from './site-structure-types.js';
import { recordPaths } from './structure-paths.js';
import {
  SECTION_SET_AFTER,
  sectionUnchanged,
  setAfterCreation,
  SECTION_FIELDS,
  SECTION_CREATE_TITLE_MAX,
} from './site-structure-fields.js';
import { placeSiteSpaces, pruneSiteSpaces } from './site-structure-spaces.js';
import { keepStructurePathsUnique } from './site-structure-unique.js';

/**
 * Sections and site spaces of one site: pairing, creations, updates, deletions, defaults, path
 * conflicts and order. Returns the section slots (the groups diff names sections through them).
 */
export function diffStructure(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
  siteDoc?: Record<string, unknown>,
): SectionSlot[] {
  const s = pairStructure(ctx, site, title, d, l);
  s.siteDoc = siteDoc;
  createAndDeleteSections(s);
  placeSiteSpaces(s);
  pruneSiteSpaces(s);
  const sectionSetKeys = updateSections(s);
  setSiteDefaults(s);
  keepStructurePathsUnique(s, sectionSetKeys);
  orderStructure(s);
  recordPaths(s);
  return s.slots;
}

/** 1. Pair sections (pairSections, in the section's module), and name the places of site spaces. */
function pairStructure(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
): Structure {
  const liveSections = d.sections ? (l?.sections ?? []) : [];
  countLive(ctx, 'site-section', liveSections.length);
  const paired = pairSections(d.sections ?? [], liveSections, ctx.prune, (path) =>
    sectionAddress(site.addr, path),
  );
  const { used } = paired;

  // With prune off, a section the config omits is left alone with its site spaces: a space it holds
  // is not taken out of it, even when the config places that space elsewhere (a warning says so).
  const held = new Map<string, LiveSection>();
  if (!ctx.prune)
    for (const ls of liveSections) if (!used.has(ls)) for (const ss of ls.spaces) held.set(ss.space, ls);
  const stays = (space: string, ls: LiveSection) =>
    warn(
      ctx,
      `site "${title}": space ${space} stays in section "${ls.path}", which the configuration leaves alone (policy.prune is false); describe that section, or take the space out of it by hand`,
    );
  // Nothing is held with prune on (most plans): every slot stays.
  const slots =
    held.size === 0
      ? paired.slots
      : paired.slots.filter((slot) => {
          const first = slot.d.spaces[0]!;
          const holder = slot.l ? undefined : held.get(first.space);
          if (holder) stays(first.space, holder);
          return !holder;
        });
  const containers: Container[] = mapHoley(slots, (slot) => ({
    slot,
    addr: slot.addr,
    live: slot.l?.spaces ?? [],
    placements: [],
  }));
  const root: Container | null = d.spaces
    ? { slot: null, addr: site.addr, live: l?.spaces ?? [], placements: [] }
    : null;
  if (root) containers.push(root);
  return newStructure({ ctx, site, d, liveSections, used, slots, held, stays, containers, root });
}

/**
 * 2. Section creations and deletions. Creations are chained: the API appends what it creates,
 *    so creating in list order (not concurrently) is what makes the planned order come true.
 */
function createAndDeleteSections(s: Structure): void {
  const { org, site } = s;
  let previousCreate: string | undefined;
  for (const slot of s.slots) {
    if (slot.l) continue;
    slot.createKey = `create:${slot.addr}`;
    slot.ref = createdRef(slot.createKey);
    const first = slot.d.spaces[0]!;
    // A draft is created as a draft: never live in between (staged structure).
    const draft = slot.d.draft ? { draft: true } : {};
    s.sections.create({
      address: slot.addr,
      after: { ...(slot.d.title !== undefined ? { title: slot.d.title } : {}), space: first.space, ...draft },
      deps: [site.createKey, previousCreate],
      op: {
        type: 'create-section',
        org,
        site: site.ref,
        spaceId: first.space,
        ...(slot.d.title !== undefined ? { title: slot.d.title.slice(0, SECTION_CREATE_TITLE_MAX) } : {}),
        ...draft,
      },
    });
    previousCreate = slot.createKey;
  }
  for (const ls of s.liveSections) {
    if (s.used.has(ls)) continue;
    const deleteKey = s.sections.prune({
      address: sectionAddress(site.addr, ls.path),
      id: ls.id,
      before: { title: ls.title },
      op: { type: 'delete-section', org, site: site.ref, section: liveRef(ls.id) },
    });
    if (deleteKey) s.deletedSections.set(ls.id, deleteKey);
  }
}

/** 4. Section fields, and each section's default site space. Returns the keys of the updates. */
function updateSections(s: Structure): Map<SectionSlot, string> {
  const sectionSetKeys = new Map<SectionSlot, string>();
  for (let index = 0; index < s.slots.length; index += 1) {
    const slot = s.slots[index]!;
    const wantDefault = s.containers[index]!.placements.find((p) => p.d.default);
    let diff: { before: Record<string, unknown>; after: Record<string, unknown> } | null;
    // What waits and the patch are made only for a section that changes (issue 33: allocation).
    let deps: (string | undefined)[] | undefined;
    if (slot.l)
      diff = sectionUnchanged(slot.d, slot.l) ? null : changedFields(slot.d, slot.l, SECTION_FIELDS);
    else {
      const after = setAfterCreation(slot.d, SECTION_SET_AFTER) ?? {};
      if ((slot.d.title?.length ?? 0) > SECTION_CREATE_TITLE_MAX) after['title'] = slot.d.title;
      diff = { before: {}, after };
      deps = [slot.createKey];
    }
    let patch: Record<string, unknown> | undefined;
    if (wantDefault) {
      const liveDefault = slot.l?.spaces.find((ss) => ss.default);
      if (!slot.l || !wantDefault.live || wantDefault.live.id !== liveDefault?.id) {
        patch = { ...(diff?.after ?? {}) };
        diff = diff ?? { before: {}, after: {} };
        diff.before['defaultSpace'] = slot.l ? (liveDefault?.space ?? null) : null;
        diff.after['defaultSpace'] = wantDefault.d.space;
        patch['defaultSiteSpace'] = { $ref: wantDefault.ref };
        (deps ??= []).push(wantDefault.createKey);
      }
    }
    if (!diff || Object.keys(diff.after).length === 0) continue;
    const key = s.sections.update({
      address: slot.addr,
      before: slot.l ? diff.before : null,
      after: diff.after,
      deps: deps ?? [],
      ...(slot.l ? {} : { note: SET_AFTER_CREATION }),
      op: {
        type: 'update-section',
        org: s.org,
        site: s.site.ref,
        section: slot.ref,
        patch: patch ?? { ...diff.after },
      },
    });
    sectionSetKeys.set(slot, key);
  }
  return sectionSetKeys;
}

/** The site's default section and root default site space ride on the site's own update. */
function setSiteDefaults(s: Structure): void {
  const { site, root } = s;
  const defaultSlot = s.slots.find((slot) => slot.d.default);
  if (defaultSlot && (!defaultSlot.l || !defaultSlot.l.default)) {
    const current = s.liveSections.find((ls) => ls.default);
    site.patch.before['defaultSection'] = current?.path ?? null;
    site.patch.after['defaultSection'] = defaultSlot.d.path;
    site.patch.body['defaultSiteSection'] = { $ref: defaultSlot.ref };
    site.patch.deps.push(defaultSlot.createKey);
  }
  if (root) {
    const want = root.placements.find((p) => p.d.default);
    const current = root.live.find((ss) => ss.default);
    if (want && (!want.live || want.live.id !== current?.id)) {
      site.patch.before['defaultSpace'] = current?.space ?? null;
      site.patch.after['defaultSpace'] = want.d.space;
      site.patch.body['defaultSiteSpace'] = { $ref: want.ref };
      site.patch.deps.push(want.createKey);
    }
  }
}

/** 6. Order: sections of the site, site spaces of each place. */
function orderStructure(s: Structure): void {
  // Every section kept in its live order, the new ones after them (most sites of most plans): no
  // moves, and the order they would start from is not built (issue 33: a map and arrays a site).
  if (!inPlanOrder(s.slots, s.liveSections, (slot) => slot.l)) addSectionMoves(s);
  orderSiteSpaces(s);
}

/** The moves of the site's sections. */
function addSectionMoves(s: Structure): void {
  const { org, site, slots } = s;
  const slotOfLive = new Map(slots.filter((slot) => slot.l).map((slot) => [slot.l!, slot]));
  const currentSections = [
    ...s.liveSections.filter((ls) => s.used.has(ls)).map((ls) => slotOfLive.get(ls)!),
    ...slots.filter((slot) => !slot.l),
  ];
  addMoves<SectionSlot, SectionOp>(
    s.sections,
    slots,
    currentSections,
    (slot) => slot.d.path,
    (item, position) => ({ type: 'move-section', org, site: site.ref, section: item.ref, position }),
  );
}

/** The moves of the site spaces of each place. */
function orderSiteSpaces(s: Structure): void {
  const { org, site } = s;
  for (const c of s.containers) {
    const mine = c.placements;
    // Every site space kept in its live order, the new ones after them (most places of most
    // plans): the order the moves would start from is the desired one, no moves to plan.
    if (inPlanOrder(mine, c.live, (p) => p.live)) continue;
    const current = [
      ...c.live.map((ss) => mine.find((p) => p.live === ss)).filter((p): p is SpacePlacement => !!p),
      ...mine.filter((p) => !p.live),
    ];
    addMoves<SpacePlacement, SiteSpaceOp>(
      s.siteSpaces,
      mine,
      current,
      (p) => p.d.space,
      (item, position) => ({ type: 'move-site-space', org, site: site.ref, siteSpace: item.ref, position }),
    );
  }
}

/**
 * Whether the placements (or section slots) are in the order the moves would start from: those
 * kept, in their live order, then the new ones (what planMoves compares first, without building
 * that order).
 */
function inPlanOrder<T, L>(
  mine: readonly T[],
  live: readonly L[],
  liveOf: (item: T) => L | undefined,
): boolean {
  let j = 0;
  let created = false;
  for (const p of mine) {
    const l = liveOf(p);
    if (!l) {
      created = true;
      continue;
    }
    if (created) return false;
    while (j < live.length && live[j] !== l) j += 1;
    if (j === live.length) return false;
    j += 1;
  }
  return true;
}
