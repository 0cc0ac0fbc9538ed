import { SET_AFTER_CREATION } from '../model/index.js';
import type { Ref } from '../model/index.js';
import {
  pairSections,
  sectionAddress,
  type DesiredSection,
  type DesiredSiteSpace,
  type DesiredStructure,
  type LiveSection,
  type LiveSiteSpace,
  type LiveStructure,
  type SectionOp,
  type SectionSlot,
} from './site-section.js';
import { siteSpaceAddress, type SiteSpaceOp } from './site-space.js';
import { kindDrafts } from '../diff/builder.js';
import { countLive, warn, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import { addMoves } from '../diff/order.js';
import { keepPathsUnique, type PathItem } from '../diff/paths.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { Container, SpacePlacement, Structure } from './site-structure-types.js';
import { overrideCustomization } from './site-space-overrides.js';
import { recordPaths } from './structure-paths.js';

/** The API takes at most 64 characters of title when it creates a section. */
export const SECTION_CREATE_TITLE_MAX = 64;

export const SECTION_FIELDS = [
  'title',
  'icon',
  'description',
  'condition',
  'path',
  'draft',
  'localizedTitle',
  'localizedDescription',
] as const;
/** What a new section's update sets after its creation (its creation takes its title and draft). */
const SECTION_SET_AFTER = [
  'path',
  'icon',
  'description',
  'condition',
  'localizedTitle',
  'localizedDescription',
];
export const SITE_SPACE_FIELDS = ['path', 'condition', 'draft', 'hidden', 'pageId'] as const;

/**
 * Whether a field given is the live value as it is (`changedFields` then finds nothing): most
 * fields of most entries. Read by name, not by key, for the site spaces and sections (issue 33).
 */
const keeps = (want: unknown, have: unknown) => want === undefined || want === (have ?? null);

/**
 * Whether no field of `fields` changes from `l` to `d` (`changedFields(d, l, fields)` is then
 * null), for the site spaces and sections of most plans: an indexed walk of the kind's own list,
 * nothing allocated.
 */
function unchangedIn(d: object, l: object, fields: readonly string[]): boolean {
  const want = d as Record<string, unknown>;
  const have = l as Record<string, unknown>;
  for (let i = 0; i < fields.length; i += 1) if (!keeps(want[fields[i]!], have[fields[i]!])) return false;
  return true;
}

/** Whether `changedFields(ds, ss, SITE_SPACE_FIELDS)` is null. */
export const siteSpaceUnchanged = (ds: DesiredSiteSpace, ss: LiveSiteSpace): boolean =>
  unchangedIn(ds, ss, SITE_SPACE_FIELDS);

/** Whether `changedFields(d, l, SECTION_FIELDS)` is null. */
export const sectionUnchanged = (d: DesiredSection, l: LiveSection): boolean =>
  unchangedIn(d, l, SECTION_FIELDS);

/**
 * Fields to set after a creation, without the flags a creation already leaves false (`hidden`,
 * `draft`): no call to say what is already so.
 */
function setAfterCreation(d: Record<string, unknown>, keys: readonly string[]) {
  const fields = fieldsToSet(d, keys);
  if (!fields) return null;
  for (const key of Object.keys(fields)) if (fields[key] === false) delete fields[key];
  return Object.keys(fields).length > 0 ? fields : null;
}

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
  const containers: Container[] = slots.map((slot) => ({
    slot,
    addr: slot.addr,
    live: slot.l?.spaces ?? [],
    placements: [],
  }));
  const root: Container | null = d.spaces
    ? { slot: null, addr: site.addr, live: l?.spaces ?? [], placements: [] }
    : null;
  if (root) containers.push(root);
  return {
    ctx,
    org: ctx.org,
    site,
    d,
    sections: kindDrafts<SectionOp>(ctx, 'site-section'),
    siteSpaces: kindDrafts<SiteSpaceOp>(ctx, 'site-space'),
    liveSections,
    used,
    slots,
    held,
    stays,
    deletedSections: new Map(),
    containers,
    root,
    movedOut: new Map(),
    siteDoc: undefined,
  };
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

/** Where each space of the site is now: its live site space, and the section holding it (null: the root). */
type LiveLocation = { ss: LiveSiteSpace; section: LiveSection | null };

/**
 * A site space's place in the plan. Its address and live reference are made when first read: most
 * site spaces of most plans keep their place and fields, and nothing reads either (issue 33).
 */
class Placement implements SpacePlacement {
  createKey?: string;
  updateKey?: string;
  private address: string | undefined;
  private reference: Ref | undefined;
  constructor(
    readonly d: DesiredSiteSpace,
    readonly container: Container,
    readonly live: LiveSiteSpace | undefined,
  ) {}
  get addr(): string {
    return (this.address ??= siteSpaceAddress(this.container.addr, this.d.space));
  }
  get ref(): Ref {
    return (this.reference ??= this.live ? liveRef(this.live.id) : { id: '' });
  }
  set ref(ref: Ref) {
    this.reference = ref;
  }
}

/** The last of `list` whose space is `space` (the live read's last wins, as a map's would). */
function lastOf(list: readonly LiveSiteSpace[], space: string): LiveSiteSpace | undefined {
  for (let i = list.length - 1; i >= 0; i -= 1) if (list[i]!.space === space) return list[i];
  return undefined;
}

/** 3. Site spaces, across the whole site: a space lives in one place per site. */
function placeSiteSpaces(s: Structure): void {
  // One map, space to the section holding its live site space (null: the root; the root's win),
  // and the site space found in that section's short list (issue 33: allocation).
  const holder = new Map<string, LiveSection | null>();
  for (const ls of s.liveSections) for (const ss of ls.spaces) holder.set(ss.space, ls);
  for (const ss of s.root?.live ?? []) holder.set(ss.space, null);
  for (const c of s.containers) if (c.slot?.l || c === s.root) countLive(s.ctx, 'site-space', c.live.length);

  for (const c of s.containers) {
    const list = c.slot ? c.slot.d.spaces : (s.d.spaces ?? []);
    let previousInContainer: string | undefined;
    for (let index = 0; index < list.length; index += 1) {
      const ds = list[index]!;
      const section = holder.get(ds.space);
      if (section === undefined) {
        previousInContainer = moveSiteSpaceHere(s, c, ds, index, undefined, previousInContainer);
        continue;
      }
      const ss = lastOf(section ? section.spaces : s.root!.live, ds.space)!;
      const here = c.slot ? section !== null && section === c.slot.l : section === null;
      if (here) {
        keepSiteSpace(s, c, ds, ss);
        continue;
      }
      if (section && s.held.get(ds.space) === section) {
        s.stays(ds.space, section);
        continue;
      }
      previousInContainer = moveSiteSpaceHere(s, c, ds, index, { ss, section }, previousInContainer);
    }
  }
}

/** A site space already in its place: its fields. */
function keepSiteSpace(s: Structure, c: Container, ds: DesiredSiteSpace, ss: LiveSiteSpace): void {
  const { org, site } = s;
  const p = new Placement(ds, c, ss);
  const diff = siteSpaceUnchanged(ds, ss) ? null : changedFields(ds, ss, SITE_SPACE_FIELDS);
  if (diff)
    p.updateKey = s.siteSpaces.update({
      address: p.addr,
      ...diff,
      op: { type: 'update-site-space', org, site: site.ref, siteSpace: p.ref, patch: diff.after },
    });
  overrideCustomization(s, p);
  c.placements.push(p);
}

/**
 * A site space elsewhere (or nowhere): take it out of its old place, then create it here (the first
 * space of a created section comes with the section). Returns the key the next creation waits for.
 */
function moveSiteSpaceHere(
  s: Structure,
  c: Container,
  ds: DesiredSiteSpace,
  index: number,
  loc: LiveLocation | undefined,
  previousInContainer: string | undefined,
): string | undefined {
  const { org, site } = s;
  const freed = loc ? freeSiteSpace(s, c, ds, loc) : undefined;
  const p = new Placement(ds, c, undefined);
  const addr = p.addr;
  const withSection = c.slot?.createKey !== undefined && index === 0;
  if (c.slot?.createKey && withSection) {
    p.createKey = c.slot.createKey;
    p.ref = createdRef(c.slot.createKey, `siteSpace:${ds.space}`);
    s.ctx.drafts.depend(c.slot.createKey, freed);
  } else {
    const draft = ds.draft ? { draft: true } : {};
    p.createKey = s.siteSpaces.create({
      address: addr,
      after: { space: ds.space, ...draft },
      deps: [site.createKey, c.slot?.createKey, freed, previousInContainer],
      op: {
        type: 'create-site-space',
        org,
        site: site.ref,
        spaceId: ds.space,
        ...(c.slot ? { section: c.slot.ref } : {}),
        ...draft,
      },
    });
    p.ref = createdRef(p.createKey);
  }
  // A section's first site space comes with it, live: a draft one becomes a draft right after.
  const follow = setAfterCreation(
    ds,
    withSection ? SITE_SPACE_FIELDS : SITE_SPACE_FIELDS.filter((f) => f !== 'draft'),
  );
  if (follow)
    p.updateKey = s.siteSpaces.update({
      address: addr,
      before: null,
      after: follow,
      deps: [p.createKey],
      note: SET_AFTER_CREATION,
      op: { type: 'update-site-space', org, site: site.ref, siteSpace: p.ref, patch: follow },
    });
  overrideCustomization(s, p);
  c.placements.push(p);
  return p.createKey;
}

/** The key of what frees a space's old place: its section's deletion, or its own. */
function freeSiteSpace(s: Structure, c: Container, ds: DesiredSiteSpace, loc: LiveLocation): string {
  const { org, site } = s;
  const freed = loc.section ? s.deletedSections.get(loc.section.id) : undefined;
  if (freed) return freed;
  // Named by the section's final path, as every change inside a renamed section is.
  const from = loc.section
    ? (s.slots.find((slot) => slot.l === loc.section)?.addr ?? sectionAddress(site.addr, loc.section.path))
    : site.addr;
  const oldAddr = siteSpaceAddress(from, ds.space);
  const key = s.siteSpaces.delete({
    key: `delete:${oldAddr}#${loc.ss.id}`,
    address: oldAddr,
    before: { path: loc.ss.path },
    note: `moves to ${c.addr}: the API cannot move a site space between sections`,
    op: { type: 'delete-site-space', org, site: site.ref, siteSpace: liveRef(loc.ss.id) },
  });
  s.movedOut.set(loc.ss.id, key);
  return key;
}

/** Live site spaces of managed places that the config does not want anywhere in the site. */
function pruneSiteSpaces(s: Structure): void {
  // The spaces the config wants in the site, gathered only when a place has a live site space
  // that no placement keeps (issue 33: most places keep all theirs).
  let wantedSpaces: Set<string> | undefined;
  for (const c of s.containers) {
    if (c.slot && !c.slot.l) continue;
    if (keepsAll(c)) continue;
    for (const ss of c.live) {
      wantedSpaces ??= spacesWanted(s);
      if (wantedSpaces.has(ss.space)) continue;
      const deleteKey = s.siteSpaces.prune({
        address: siteSpaceAddress(c.addr, ss.space),
        id: ss.id,
        before: { path: ss.path },
        op: { type: 'delete-site-space', org: s.org, site: s.site.ref, siteSpace: liveRef(ss.id) },
      });
      if (deleteKey) s.movedOut.set(ss.id, deleteKey);
    }
  }
}

/**
 * Whether placements keep each of the place's live site spaces, in live order (so none is pruned;
 * any other case goes through the set of wanted spaces).
 */
function keepsAll(c: Container): boolean {
  let j = 0;
  for (const p of c.placements)
    if (p.live) {
      if (c.live[j] !== p.live) return false;
      j += 1;
    }
  return j === c.live.length;
}

/** Every space the config places in the site. */
function spacesWanted(s: Structure): Set<string> {
  const wanted = new Set<string>();
  for (const c of s.containers)
    for (const ds of (c.slot ? c.slot.d.spaces : s.d.spaces) ?? []) wanted.add(ds.space);
  return wanted;
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

/** 5. Paths stay unique in each scope while they change. */
function keepStructurePathsUnique(s: Structure, sectionSetKeys: Map<SectionSlot, string>): void {
  // A scope where no path is set has nothing to order (what keepPathsUnique looks for first): its
  // items are not built (issue 33: allocation).
  const sectionPathSet = s.slots.some((slot) => {
    const want = slot.l && slot.l.path === slot.d.path ? null : slot.d.path;
    return want !== null && want !== (slot.l?.path ?? null) && !!sectionSetKeys.get(slot);
  });
  if (sectionPathSet) keepSectionPathsUnique(s, sectionSetKeys);
  for (const c of s.containers) keepSiteSpacePathsUnique(s, c);
}

/** Paths of the site's sections stay unique while they change. */
function keepSectionPathsUnique(s: Structure, sectionSetKeys: Map<SectionSlot, string>): void {
  const { ctx, org, site, slots } = s;
  const sectionItems: PathItem[] = [
    ...slots.map((slot) => ({
      label: slot.addr,
      livePath: slot.l?.path ?? null,
      wantPath: slot.l && slot.l.path === slot.d.path ? null : slot.d.path,
      ...(sectionSetKeys.get(slot) ? { setKey: sectionSetKeys.get(slot)! } : {}),
    })),
    ...s.liveSections
      .filter((ls) => !s.used.has(ls))
      .map((ls) => ({
        label: sectionAddress(site.addr, ls.path),
        livePath: ls.path,
        wantPath: null,
        ...(s.deletedSections.get(ls.id) ? { deleteKey: s.deletedSections.get(ls.id)! } : {}),
      })),
  ];
  const slotByLabel = new Map(slots.map((slot) => [slot.addr, slot]));
  keepPathsUnique<SectionOp>(ctx, sectionItems, s.sections, (item, path) => ({
    type: 'update-section',
    org,
    site: site.ref,
    section: slotByLabel.get(item.label)!.ref,
    patch: { path },
  }));
}

/** Paths of the site spaces of one place stay unique while they change. */
function keepSiteSpacePathsUnique(s: Structure, c: Container): void {
  const { ctx, org, site } = s;
  const mine = c.placements;
  if (!pathSetIn(mine)) return;
  // Items one by one, no spreads or nested searches per site space (issue 33).
  const items: PathItem[] = [];
  for (const p of mine) {
    const item: PathItem = {
      label: p.addr,
      livePath: p.live?.path ?? null,
      wantPath: p.d.path !== undefined && p.d.path !== p.live?.path ? p.d.path : null,
    };
    if (p.updateKey) item.setKey = p.updateKey;
    items.push(item);
  }
  for (const ss of c.live) {
    if (placed(mine, ss)) continue;
    const item: PathItem = { label: siteSpaceAddress(c.addr, ss.space), livePath: ss.path, wantPath: null };
    const deleteKey = s.movedOut.get(ss.id);
    if (deleteKey) item.deleteKey = deleteKey;
    items.push(item);
  }
  keepPathsUnique<SiteSpaceOp>(ctx, items, s.siteSpaces, (item, path) => ({
    type: 'update-site-space',
    org,
    site: site.ref,
    siteSpace: placementAt(mine, item.label)!.ref,
    patch: { path },
  }));
}

/** Whether one of the placements keeps the live site space. */
function placed(placements: readonly SpacePlacement[], ss: LiveSiteSpace): boolean {
  for (const p of placements) if (p.live === ss) return true;
  return false;
}

/** The (last) placement at `addr`. */
function placementAt(placements: readonly SpacePlacement[], addr: string): SpacePlacement | undefined {
  for (let i = placements.length - 1; i >= 0; i -= 1) if (placements[i]!.addr === addr) return placements[i];
  return undefined;
}

/** Whether an update of one of the placements sets its path (what keepPathsUnique looks for first). */
function pathSetIn(placements: readonly SpacePlacement[]): boolean {
  for (const p of placements)
    if (p.updateKey && p.d.path !== undefined && p.d.path !== (p.live?.path ?? null)) return true;
  return false;
}

/** 6. Order: sections of the site, site spaces of each place. */
function orderStructure(s: Structure): void {
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
  for (const c of s.containers) {
    const mine = c.placements;
    // Every site space kept in its live order, the new ones after them (most places of most
    // plans): the order the moves would start from is the desired one, no moves to plan.
    if (inPlanOrder(mine, c.live)) continue;
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
 * Whether the placements are in the order the moves would start from: those kept, in their live
 * order, then the new ones (what planMoves compares first, without building that order).
 */
function inPlanOrder(mine: readonly SpacePlacement[], live: readonly LiveSiteSpace[]): boolean {
  let j = 0;
  let created = false;
  for (const p of mine) {
    if (!p.live) {
      created = true;
      continue;
    }
    if (created) return false;
    while (j < live.length && live[j] !== p.live) j += 1;
    if (j === live.length) return false;
    j += 1;
  }
  return true;
}
