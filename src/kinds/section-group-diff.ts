import { SET_AFTER_CREATION, type Fields, type Patch } from '../model/index.js';
import { groupAddress, type GroupMembershipOp, type SectionGroupOp } from './section-group.js';
import {
  sectionAddress,
  type DesiredSectionGroup,
  type DesiredStructure,
  type LiveSectionGroup,
  type LiveStructure,
  type SectionSlot,
} from './site-section.js';
import { kindDrafts, type KindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, liveRef } from '../diff/draft.js';
import { addMoves, type Movable } from '../diff/order.js';
import {
  innermostFirst,
  levelsNow,
  parentChange,
  parentsFirst,
  wantedLevel,
  type NestedSlot,
} from './section-group-nesting.js';
import type { NavSlot, SiteScope } from '../diff/site-scope.js';

type GroupSlot = NestedSlot & { liveId?: string };

/** What the groups of a site became: their slots, each section's wanted group, what was deleted. */
type Groups = {
  slots: GroupSlot[];
  wantedGroupOf: Map<SectionSlot, GroupSlot>;
  /** Live groups whose memberships the config leaves alone (`sections` omitted). */
  membersUnmanaged: Set<string>;
  /** Keys of group deletions, by live group id. */
  deleted: Map<string, string>;
  /** Groups the plan moves into another group (or to the root). */
  moved: Set<GroupSlot>;
};

/** Section groups of one site: by title (or pinned id); membership changes are one call per section. */
export function diffGroups(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
  slots: SectionSlot[],
): Map<string, NavSlot> {
  const live = l?.sectionGroups ?? [];
  countLive(ctx, 'site-section-group', live.length);
  const groupDrafts = kindDrafts<SectionGroupOp>(ctx, 'site-section-group');
  const groups = diffSectionGroups(ctx, groupDrafts, site, title, d.sectionGroups ?? [], live, slots);
  diffMemberships(ctx, site, live, slots, groups);
  orderGroups(ctx, groupDrafts, site, live, groups);
  return new Map(groups.slots.map((g) => [g.title, g]));
}

/** The title of a live group by id (its id, if it is not read). */
const titleIn = (live: readonly LiveSectionGroup[]) => (id: string) =>
  live.find((g) => g.id === id)?.title ?? id;

/** A group's update that moves it into another group (or to the root), planned after the creations. */
type GroupMove = { slot: GroupSlot; before: Fields; after: Fields; patch: Patch };

/** The groups themselves: creations (with their first members, in their parent), renames, moves between groups, deletions. */
function diffSectionGroups(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  title: string,
  desired: DesiredSectionGroup[],
  live: LiveSectionGroup[],
  slots: SectionSlot[],
): Groups {
  const slotByPath = new Map(slots.map((s) => [s.d.path, s]));
  const groupSlots: GroupSlot[] = [];
  const wantedGroupOf = new Map<SectionSlot, GroupSlot>();
  const membersUnmanaged = new Set<string>();
  const byTitle = new Map<string, GroupSlot>();
  const liveTitle = titleIn(live);
  const updates: GroupMove[] = [];

  let previousCreate: string | undefined;
  const { pairs, leftover } = pairByIdentity(
    ctx,
    `site "${title}": section group`,
    // Parents first: a group is created (or moved) into a group that exists.
    parentsFirst(desired),
    live,
    (g) => g.title,
  );
  for (const [dg, lg] of pairs) {
    const addr = groupAddress(site.addr, dg.title);
    const members = (dg.sections ?? []).map((p) => slotByPath.get(p)).filter((s): s is SectionSlot => !!s);
    if (lg && dg.sections === undefined) membersUnmanaged.add(lg.id);
    const slot: GroupSlot = lg
      ? { title: dg.title, ref: liveRef(lg.id), addr, liveId: lg.id, d: dg, l: lg }
      : createdGroup(ctx, groupDrafts, site, dg, addr, members, byTitle, previousCreate);
    groupSlots.push(slot);
    byTitle.set(dg.title, slot);
    for (const m of members) wantedGroupOf.set(m, slot);
    if (lg) keptGroup(ctx, groupDrafts, site, slot, lg, updates, (t) => byTitle.get(t), liveTitle);
    else previousCreate = slot.createKey;
  }
  const moved = moveGroups(ctx, groupDrafts, site, updates, previousCreate);
  const deleted = deleteGroups(ctx, groupDrafts, site, leftover, groupSlots, moved);
  return { slots: groupSlots, wantedGroupOf, membersUnmanaged, deleted, moved };
}

/** A group the config adds: created with its first members in its parent, then its localized titles. */
function createdGroup(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  dg: DesiredSectionGroup,
  addr: string,
  members: SectionSlot[],
  byTitle: Map<string, GroupSlot>,
  previousCreate: string | undefined,
): GroupSlot {
  const { org } = ctx;
  const key = `create:${addr}`;
  const parent = dg.parent ? byTitle.get(dg.parent) : undefined;
  const slot: GroupSlot = {
    title: dg.title,
    ref: createdRef(key),
    addr,
    createKey: key,
    d: dg,
    arrival: key,
  };
  groupDrafts.create({
    address: addr,
    after: {
      title: dg.title,
      ...(dg.icon !== undefined ? { icon: dg.icon } : {}),
      ...(dg.draft ? { draft: true } : {}),
      ...(parent ? { parent: dg.parent } : {}),
      ...(dg.sections !== undefined ? { sections: dg.sections } : {}),
    },
    deps: [site.createKey, previousCreate, parent?.createKey, ...members.map((m) => m.createKey)],
    op: {
      type: 'create-section-group',
      org,
      site: site.ref,
      title: dg.title,
      ...(dg.icon !== undefined ? { icon: dg.icon } : {}),
      sections: members.map((m) => m.ref),
      ...(parent ? { parent: parent.ref } : {}),
      // A draft is created as a draft: never live in between (staged structure).
      ...(dg.draft ? { draft: true } : {}),
    },
  });
  // The creation cannot take localized titles: set right after.
  if (dg.localizedTitle && Object.keys(dg.localizedTitle).length > 0)
    groupDrafts.update({
      address: addr,
      before: null,
      after: { localizedTitle: dg.localizedTitle },
      deps: [key],
      note: SET_AFTER_CREATION,
      op: {
        type: 'update-section-group',
        org,
        site: site.ref,
        group: slot.ref,
        patch: { localizedTitle: dg.localizedTitle },
      },
    });
  return slot;
}

/** A live group the config keeps: updated now, or its move (with its changes) queued in `updates`. */
function keptGroup(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  slot: GroupSlot,
  lg: LiveSectionGroup,
  updates: GroupMove[],
  slotOf: (title: string) => GroupSlot | undefined,
  liveTitle: (id: string) => string,
): void {
  const dg = slot.d;
  const addr = slot.addr;
  // A rename keeps the group and its memberships: one update (with its move into another group).
  const diff = changedFields(dg, lg, ['title', 'icon', 'draft', 'localizedTitle']);
  const move = parentChange(slot, slotOf, liveTitle);
  if (diff && !move)
    groupDrafts.update({
      address: addr,
      ...diff,
      op: { type: 'update-section-group', org: ctx.org, site: site.ref, group: slot.ref, patch: diff.after },
    });
  else if (move)
    updates.push({
      slot,
      before: { ...diff?.before, parent: move.before },
      after: { ...diff?.after, parent: move.after },
      patch: { ...diff?.after, parentSectionGroupId: move.field },
    });
}

/**
 * Moves into other groups run after the creations (a new parent exists), parents first, one
 * after the other: each is appended to its new level, in the order planned.
 */
function moveGroups(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  updates: GroupMove[],
  previousCreate: string | undefined,
): Set<GroupSlot> {
  const moved = new Set<GroupSlot>();
  let previousMove = previousCreate;
  for (const u of updates) {
    const key = groupDrafts.update({
      address: u.slot.addr,
      before: u.before,
      after: u.after,
      deps: [previousMove],
      op: { type: 'update-section-group', org: ctx.org, site: site.ref, group: u.slot.ref, patch: u.patch },
    });
    moved.add(u.slot);
    u.slot.arrival = key;
    previousMove = key;
  }
  return moved;
}

/** The live groups the config omits, innermost first (when pruned): by live id, their deletion's key. */
function deleteGroups(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  leftover: LiveSectionGroup[],
  groupSlots: GroupSlot[],
  moved: Set<GroupSlot>,
): Map<string, string> {
  const deleted = new Map<string, string>();
  for (const lg of innermostFirst(leftover)) {
    const addr = groupAddress(site.addr, lg.title);
    const deleteKey = groupDrafts.prune({
      address: addr,
      id: lg.id,
      before: { title: lg.title },
      op: { type: 'delete-section-group', org: ctx.org, site: site.ref, group: liveRef(lg.id) },
    });
    if (!deleteKey) continue;
    deleted.set(lg.id, deleteKey);
    // A group is deleted once what it holds is deleted or moved out.
    const inside = [...leftover, ...groupSlots.flatMap((g) => (g.l ? [g.l] : []))].filter(
      (x) => x.parent === lg.id,
    );
    ctx.drafts.depend(
      deleteKey,
      ...inside.map((x) => deleted.get(x.id) ?? groupSlots.find((g) => g.l === x && moved.has(g))?.arrival),
    );
  }
  return deleted;
}

/**
 * Membership of every section the config describes. A section has a single group: joining
 * another group moves it there in one call. A group the config omits is left alone with its
 * memberships unless it is pruned (its deletion ends them); so is a group that omits `sections`.
 */
function diffMemberships(
  ctx: DiffContext,
  site: SiteScope,
  live: LiveSectionGroup[],
  slots: SectionSlot[],
  { slots: groupSlots, wantedGroupOf, membersUnmanaged, deleted }: Groups,
): void {
  const { org } = ctx;
  const membershipDrafts = kindDrafts<GroupMembershipOp>(ctx, 'section-group-membership');
  const managedIds = new Set(groupSlots.map((g) => g.liveId).filter((id): id is string => !!id));
  for (const s of slots) {
    const want = wantedGroupOf.get(s);
    const have = s.l?.group ?? null;
    if (want?.createKey) continue; // joined at the group's creation
    if (want && want.liveId === have) continue;
    const old = have === null ? undefined : live.find((g) => g.id === have);
    const leaving = have !== null && !deleted.has(have) ? (old?.title ?? have) : null;
    if (want) {
      const addr = sectionAddress(want.addr, s.d.path);
      const join = {
        address: addr,
        after: { group: want.title },
        deps: [s.createKey],
        op: { type: 'add-group-section', org, site: site.ref, group: want.ref, section: s.ref } as const,
      };
      if (leaving === null) membershipDrafts.create(join);
      else membershipDrafts.update({ ...join, before: { group: leaving } });
      continue;
    }
    if (leaving === null || !managedIds.has(have!) || membersUnmanaged.has(have!)) continue;
    const addr = sectionAddress(groupAddress(site.addr, leaving), s.d.path);
    membershipDrafts.delete({
      address: addr,
      before: { group: leaving },
      op: { type: 'remove-group-section', org, site: site.ref, group: liveRef(have!), section: s.ref },
    });
  }
}

/**
 * The groups' order within each level (the root, a group): live groups where they are, new ones
 * and those moved there last, moved among their siblings as few times as possible.
 */
function orderGroups(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  live: LiveSectionGroup[],
  { slots, moved }: Groups,
): void {
  const { org } = ctx;
  const liveTitle = titleIn(live);
  const now = levelsNow(slots, live, liveTitle, moved);
  const wanted = new Map<string, GroupSlot[]>();
  for (const g of slots) {
    const level = wantedLevel(g, liveTitle);
    wanted.set(level, [...(wanted.get(level) ?? []), g]);
  }
  // In the config's order, not the creations' (parents first).
  const inConfig = (list: GroupSlot[]) => [...list].sort((a, b) => slots.indexOf(a) - slots.indexOf(b));
  // A move waits for its group and its anchor to be where they go (created or moved there).
  const movable = new Map(
    slots.map((g): [GroupSlot, Movable & GroupSlot] => [g, { ...g, createKey: g.arrival }]),
  );
  const asMovable = (list: GroupSlot[]) => list.map((g) => movable.get(g)!);
  for (const [level, desired] of wanted)
    addMoves<GroupSlot & Movable, SectionGroupOp>(
      groupDrafts,
      asMovable(inConfig(desired)),
      asMovable(now.get(level) ?? []),
      (g) => g.title,
      (item, position) => ({
        type: 'move-section-group',
        org,
        site: site.ref,
        group: item.ref,
        position,
      }),
    );
}
