import { SET_AFTER_CREATION, type Ref } from '../model/index.js';
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
import { addMoves } from '../diff/order.js';
import type { SiteScope } from '../diff/site-scope.js';

type GroupSlot = { title: string; ref: Ref; addr: string; createKey?: string; liveId?: string };

/** What the groups of a site became: their slots, each section's wanted group, what was deleted. */
type Groups = {
  slots: GroupSlot[];
  wantedGroupOf: Map<SectionSlot, GroupSlot>;
  /** Live groups whose memberships the config leaves alone (`sections` omitted). */
  membersUnmanaged: Set<string>;
  /** Keys of group deletions, by live group id. */
  deleted: Map<string, string>;
};

/** Section groups of one site: by title (or pinned id); membership changes are one call per section. */
export function diffGroups(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
  slots: SectionSlot[],
): void {
  const live = l?.sectionGroups ?? [];
  countLive(ctx, 'site-section-group', live.length);
  const groupDrafts = kindDrafts<SectionGroupOp>(ctx, 'site-section-group');
  const groups = diffSectionGroups(ctx, groupDrafts, site, title, d.sectionGroups ?? [], live, slots);
  diffMemberships(ctx, site, live, slots, groups);
  orderGroups(ctx, groupDrafts, site, live, groups.slots);
}

/** The groups themselves: creations (with their first members), renames, deletions. */
function diffSectionGroups(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  title: string,
  desired: DesiredSectionGroup[],
  live: LiveSectionGroup[],
  slots: SectionSlot[],
): Groups {
  const { org } = ctx;
  const slotByPath = new Map(slots.map((s) => [s.d.path, s]));
  const groupSlots: GroupSlot[] = [];
  const wantedGroupOf = new Map<SectionSlot, GroupSlot>();
  const membersUnmanaged = new Set<string>();

  let previousCreate: string | undefined;
  const { pairs, leftover } = pairByIdentity(
    ctx,
    `site "${title}": section group`,
    desired,
    live,
    (g) => g.title,
  );
  for (const [dg, lg] of pairs) {
    const addr = groupAddress(site.addr, dg.title);
    const members = (dg.sections ?? []).map((p) => slotByPath.get(p)).filter((s): s is SectionSlot => !!s);
    if (lg && dg.sections === undefined) membersUnmanaged.add(lg.id);
    if (!lg) {
      const key = `create:${addr}`;
      const slot: GroupSlot = { title: dg.title, ref: createdRef(key), addr, createKey: key };
      groupDrafts.create({
        address: addr,
        after: {
          title: dg.title,
          ...(dg.icon !== undefined ? { icon: dg.icon } : {}),
          ...(dg.draft ? { draft: true } : {}),
          ...(dg.sections !== undefined ? { sections: dg.sections } : {}),
        },
        deps: [site.createKey, previousCreate, ...members.map((m) => m.createKey)],
        op: {
          type: 'create-section-group',
          org,
          site: site.ref,
          title: dg.title,
          ...(dg.icon !== undefined ? { icon: dg.icon } : {}),
          sections: members.map((m) => m.ref),
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
      groupSlots.push(slot);
      for (const m of members) wantedGroupOf.set(m, slot);
      previousCreate = key;
      continue;
    }
    const slot: GroupSlot = { title: dg.title, ref: liveRef(lg.id), addr, liveId: lg.id };
    groupSlots.push(slot);
    for (const m of members) wantedGroupOf.set(m, slot);
    // A rename keeps the group and its memberships: one update.
    const diff = changedFields(dg, lg, ['title', 'icon', 'draft', 'localizedTitle']);
    if (diff)
      groupDrafts.update({
        address: addr,
        ...diff,
        op: { type: 'update-section-group', org, site: site.ref, group: slot.ref, patch: diff.after },
      });
  }
  const deleted = new Map<string, string>();
  for (const lg of leftover) {
    const addr = groupAddress(site.addr, lg.title);
    const deleteKey = groupDrafts.prune({
      address: addr,
      id: lg.id,
      before: { title: lg.title },
      op: { type: 'delete-section-group', org, site: site.ref, group: liveRef(lg.id) },
    });
    if (deleteKey) deleted.set(lg.id, deleteKey);
  }
  return { slots: groupSlots, wantedGroupOf, membersUnmanaged, deleted };
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

/** The groups' order in the site: live groups where they are, new ones last, moved as few as possible. */
function orderGroups(
  ctx: DiffContext,
  groupDrafts: KindDrafts<SectionGroupOp>,
  site: SiteScope,
  live: LiveSectionGroup[],
  groupSlots: GroupSlot[],
): void {
  const { org } = ctx;
  const current = [
    ...live.map((lg) => groupSlots.find((g) => g.liveId === lg.id)).filter((g): g is GroupSlot => !!g),
    ...groupSlots.filter((g) => !g.liveId),
  ];
  addMoves<GroupSlot, SectionGroupOp>(
    groupDrafts,
    groupSlots,
    current,
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
