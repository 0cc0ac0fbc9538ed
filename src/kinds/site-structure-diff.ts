import { SET_AFTER_CREATION, type Ref } from '../model/index.js';
import { pairSections, sectionAddress, type SectionSlot } from './site-section.js';
import { siteSpaceAddress } from './site-space.js';
import type {
  DesiredSiteSpace,
  DesiredStructure,
  LiveSection,
  LiveSiteSpace,
  LiveStructure,
} from './site-structure.js';
import { countLive, type DiffContext, pruneOrList, warn } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import { addMoves } from '../diff/order.js';
import { keepPathsUnique, type PathItem } from '../diff/paths.js';
import type { SiteScope } from '../diff/site-scope.js';

/** The API takes at most 64 characters of title when it creates a section. */
export const SECTION_CREATE_TITLE_MAX = 64;

type Container = {
  slot: SectionSlot | null;
  addr: string;
  live: LiveSiteSpace[];
  placements: SpacePlacement[];
};

type SpacePlacement = {
  d: DesiredSiteSpace;
  container: Container;
  addr: string;
  ref: Ref;
  createKey?: string;
  updateKey?: string;
  live?: LiveSiteSpace;
};

const SECTION_FIELDS = ['title', 'icon', 'description', 'condition', 'path'] as const;
const SITE_SPACE_FIELDS = ['path', 'condition'] as const;

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
): SectionSlot[] {
  const { drafts, org } = ctx;
  const liveSections = d.sections ? (l?.sections ?? []) : [];
  countLive(ctx, 'site-section', liveSections.length);

  // 1. Pair sections (pairSections, in the section's module).
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
  const slots = paired.slots.filter((slot) => {
    const first = slot.d.spaces[0]!;
    const holder = slot.l ? undefined : held.get(first.space);
    if (holder) stays(first.space, holder);
    return !holder;
  });

  // 2. Section creations and deletions. Creations are chained: the API appends what it creates,
  //    so creating in list order (not concurrently) is what makes the planned order come true.
  let previousCreate: string | undefined;
  for (const slot of slots) {
    if (slot.l) continue;
    slot.createKey = `create:${slot.addr}`;
    slot.ref = createdRef(slot.createKey);
    const first = slot.d.spaces[0]!;
    drafts.add({
      key: slot.createKey,
      action: 'create',
      kind: 'site-section',
      address: slot.addr,
      before: null,
      after: { ...(slot.d.title !== undefined ? { title: slot.d.title } : {}), space: first.space },
      deps: [site.createKey, previousCreate],
      op: {
        type: 'create-section',
        org,
        site: site.ref,
        spaceId: first.space,
        ...(slot.d.title !== undefined ? { title: slot.d.title.slice(0, SECTION_CREATE_TITLE_MAX) } : {}),
      },
    });
    previousCreate = slot.createKey;
  }
  const deletedSections = new Map<string, string>();
  for (const ls of liveSections) {
    if (used.has(ls)) continue;
    const addr = sectionAddress(site.addr, ls.path);
    const deleteKey = pruneOrList(ctx, {
      key: `delete:${addr}#${ls.id}`,
      kind: 'site-section',
      address: addr,
      before: { title: ls.title },
      op: { type: 'delete-section', org, site: site.ref, section: liveRef(ls.id) },
    });
    if (deleteKey) deletedSections.set(ls.id, deleteKey);
  }

  // 3. Site spaces, across the whole site: a space lives in one place per site.
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
  const liveLocation = new Map<string, { ss: LiveSiteSpace; section: LiveSection | null }>();
  for (const ls of liveSections) for (const ss of ls.spaces) liveLocation.set(ss.space, { ss, section: ls });
  for (const ss of root?.live ?? []) liveLocation.set(ss.space, { ss, section: null });
  for (const c of containers) if (c.slot?.l || c === root) countLive(ctx, 'site-space', c.live.length);

  const movedOut = new Map<string, string>();
  const wantedSpaces = new Set<string>();
  for (const c of containers)
    for (const ds of (c.slot ? c.slot.d.spaces : d.spaces) ?? []) wantedSpaces.add(ds.space);

  for (const c of containers) {
    const list = c.slot ? c.slot.d.spaces : (d.spaces ?? []);
    let previousInContainer: string | undefined;
    list.forEach((ds, index) => {
      const addr = siteSpaceAddress(c.addr, ds.space);
      const loc = liveLocation.get(ds.space);
      const here = loc && (c.slot ? loc.section !== null && loc.section === c.slot.l : loc.section === null);
      if (loc && !here && loc.section && held.get(ds.space) === loc.section) {
        stays(ds.space, loc.section);
        return;
      }
      if (loc && here) {
        const p: SpacePlacement = { d: ds, container: c, addr, ref: liveRef(loc.ss.id), live: loc.ss };
        const diff = changedFields(ds, loc.ss, SITE_SPACE_FIELDS);
        if (diff) {
          p.updateKey = `update:${addr}`;
          drafts.add({
            key: p.updateKey,
            action: 'update',
            kind: 'site-space',
            address: addr,
            ...diff,
            op: { type: 'update-site-space', org, site: site.ref, siteSpace: p.ref, patch: diff.after },
          });
        }
        c.placements.push(p);
        return;
      }
      // It is elsewhere (or nowhere): take it out of its old place, then create it here.
      let freed: string | undefined;
      if (loc) {
        freed = loc.section ? deletedSections.get(loc.section.id) : undefined;
        if (!freed) {
          // Named by the section's final path, as every change inside a renamed section is.
          const from = loc.section
            ? (slots.find((s) => s.l === loc.section)?.addr ?? sectionAddress(site.addr, loc.section.path))
            : site.addr;
          const oldAddr = siteSpaceAddress(from, ds.space);
          freed = `delete:${oldAddr}#${loc.ss.id}`;
          drafts.add({
            key: freed,
            action: 'delete',
            kind: 'site-space',
            address: oldAddr,
            before: { path: loc.ss.path },
            after: null,
            note: `moves to ${c.addr}: the API cannot move a site space between sections`,
            op: { type: 'delete-site-space', org, site: site.ref, siteSpace: liveRef(loc.ss.id) },
          });
          movedOut.set(loc.ss.id, freed);
        }
      }
      const p: SpacePlacement = { d: ds, container: c, addr, ref: { id: '' } };
      if (c.slot?.createKey && index === 0) {
        p.createKey = c.slot.createKey;
        p.ref = createdRef(c.slot.createKey, `siteSpace:${ds.space}`);
        drafts.depend(c.slot.createKey, freed);
        previousInContainer = p.createKey;
      } else {
        p.createKey = `create:${addr}`;
        p.ref = createdRef(p.createKey);
        drafts.add({
          key: p.createKey,
          action: 'create',
          kind: 'site-space',
          address: addr,
          before: null,
          after: { space: ds.space },
          deps: [site.createKey, c.slot?.createKey, freed, previousInContainer],
          op: {
            type: 'create-site-space',
            org,
            site: site.ref,
            spaceId: ds.space,
            ...(c.slot ? { section: c.slot.ref } : {}),
          },
        });
        previousInContainer = p.createKey;
      }
      const follow = fieldsToSet(ds, SITE_SPACE_FIELDS);
      if (follow) {
        p.updateKey = `update:${addr}`;
        drafts.add({
          key: p.updateKey,
          action: 'update',
          kind: 'site-space',
          address: addr,
          before: null,
          after: follow,
          deps: [p.createKey],
          note: SET_AFTER_CREATION,
          op: { type: 'update-site-space', org, site: site.ref, siteSpace: p.ref, patch: follow },
        });
      }
      c.placements.push(p);
    });
  }
  // Live site spaces of managed places that the config does not want anywhere in the site.
  for (const c of containers) {
    if (c.slot && !c.slot.l) continue;
    for (const ss of c.live) {
      if (wantedSpaces.has(ss.space)) continue;
      const addr = siteSpaceAddress(c.addr, ss.space);
      const deleteKey = pruneOrList(ctx, {
        key: `delete:${addr}#${ss.id}`,
        kind: 'site-space',
        address: addr,
        before: { path: ss.path },
        op: { type: 'delete-site-space', org, site: site.ref, siteSpace: liveRef(ss.id) },
      });
      if (deleteKey) movedOut.set(ss.id, deleteKey);
    }
  }

  // 4. Section fields, and each section's default site space.
  const sectionSetKeys = new Map<SectionSlot, string>();
  for (const [index, slot] of slots.entries()) {
    const mine = containers[index]!.placements;
    const wantDefault = mine.find((p) => p.d.default);
    const liveDefault = slot.l?.spaces.find((ss) => ss.default);
    let diff: { before: Record<string, unknown>; after: Record<string, unknown> } | null;
    const deps: (string | undefined)[] = [];
    if (slot.l) diff = changedFields(slot.d, slot.l, SECTION_FIELDS);
    else {
      const after = fieldsToSet(slot.d, ['path', 'icon', 'description', 'condition']) ?? {};
      if ((slot.d.title?.length ?? 0) > SECTION_CREATE_TITLE_MAX) after['title'] = slot.d.title;
      diff = { before: {}, after };
      deps.push(slot.createKey);
    }
    const patch: Record<string, unknown> = { ...(diff?.after ?? {}) };
    if (wantDefault && (!slot.l || !wantDefault.live || wantDefault.live.id !== liveDefault?.id)) {
      diff = diff ?? { before: {}, after: {} };
      diff.before['defaultSpace'] = slot.l ? (liveDefault?.space ?? null) : null;
      diff.after['defaultSpace'] = wantDefault.d.space;
      patch['defaultSiteSpace'] = { $ref: wantDefault.ref };
      deps.push(wantDefault.createKey);
    }
    if (!diff || Object.keys(diff.after).length === 0) continue;
    const key = `update:${slot.addr}`;
    drafts.add({
      key,
      action: 'update',
      kind: 'site-section',
      address: slot.addr,
      before: slot.l ? diff.before : null,
      after: diff.after,
      deps,
      ...(slot.l ? {} : { note: SET_AFTER_CREATION }),
      op: { type: 'update-section', org, site: site.ref, section: slot.ref, patch },
    });
    sectionSetKeys.set(slot, key);
  }
  // The site's default section and root default site space ride on the site's own update.
  const defaultSlot = slots.find((s) => s.d.default);
  if (defaultSlot && (!defaultSlot.l || !defaultSlot.l.default)) {
    const current = liveSections.find((s) => s.default);
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

  // 5. Paths stay unique in each scope while they change.
  const sectionItems: PathItem[] = [
    ...slots.map((slot) => ({
      label: slot.addr,
      livePath: slot.l?.path ?? null,
      wantPath: slot.l && slot.l.path === slot.d.path ? null : slot.d.path,
      ...(sectionSetKeys.get(slot) ? { setKey: sectionSetKeys.get(slot)! } : {}),
    })),
    ...liveSections
      .filter((ls) => !used.has(ls))
      .map((ls) => ({
        label: sectionAddress(site.addr, ls.path),
        livePath: ls.path,
        wantPath: null,
        ...(deletedSections.get(ls.id) ? { deleteKey: deletedSections.get(ls.id)! } : {}),
      })),
  ];
  const slotByLabel = new Map(slots.map((s) => [s.addr, s]));
  keepPathsUnique(ctx, sectionItems, 'site-section', (item, path) => ({
    type: 'update-section',
    org,
    site: site.ref,
    section: slotByLabel.get(item.label)!.ref,
    patch: { path },
  }));

  for (const c of containers) {
    const mine = c.placements;
    const byLabel = new Map(mine.map((p) => [p.addr, p]));
    const items: PathItem[] = [
      ...mine.map((p) => ({
        label: p.addr,
        livePath: p.live?.path ?? null,
        wantPath: p.d.path !== undefined && p.d.path !== p.live?.path ? p.d.path : null,
        ...(p.updateKey ? { setKey: p.updateKey } : {}),
      })),
      ...c.live
        .filter((ss) => !mine.some((p) => p.live === ss))
        .map((ss) => ({
          label: siteSpaceAddress(c.addr, ss.space),
          livePath: ss.path,
          wantPath: null,
          ...(movedOut.get(ss.id) ? { deleteKey: movedOut.get(ss.id)! } : {}),
        })),
    ];
    keepPathsUnique(ctx, items, 'site-space', (item, path) => ({
      type: 'update-site-space',
      org,
      site: site.ref,
      siteSpace: byLabel.get(item.label)!.ref,
      patch: { path },
    }));
  }

  // 6. Order: sections of the site, site spaces of each place.
  const slotOfLive = new Map(slots.filter((s) => s.l).map((s) => [s.l!, s]));
  const currentSections = [
    ...liveSections.filter((ls) => used.has(ls)).map((ls) => slotOfLive.get(ls)!),
    ...slots.filter((s) => !s.l),
  ];
  addMoves(
    drafts,
    'site-section',
    slots,
    currentSections,
    (s) => s.d.path,
    (item, position) => ({ type: 'move-section', org, site: site.ref, section: item.ref, position }),
  );
  for (const c of containers) {
    const mine = c.placements;
    const current = [
      ...c.live.map((ss) => mine.find((p) => p.live === ss)).filter((p): p is SpacePlacement => !!p),
      ...mine.filter((p) => !p.live),
    ];
    addMoves(
      drafts,
      'site-space',
      mine,
      current,
      (p) => p.d.space,
      (item, position) => ({ type: 'move-site-space', org, site: site.ref, siteSpace: item.ref, position }),
    );
  }
  return slots;
}
