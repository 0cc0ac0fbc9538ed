import type { Ref } from '../model/index.js';
import { groupAddress } from './section-group.js';
import { sectionAddress, type SectionSlot } from './site-section.js';
import type { DesiredStructure, LiveStructure } from './site-structure.js';
import { countLive, type DiffContext, pairByIdentity, pruneOrList } from '../diff/context.js';
import { changedFields, createdRef, liveRef } from '../diff/draft.js';
import { addMoves } from '../diff/order.js';
import type { SiteScope } from '../diff/site-scope.js';

type GroupSlot = { title: string; ref: Ref; addr: string; createKey?: string; liveId?: string };

/** Section groups of one site: by title (or pinned id); membership changes are one call per section. */
export function diffGroups(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredStructure,
  l: LiveStructure | undefined,
  slots: SectionSlot[],
): void {
  const { drafts, org } = ctx;
  const desired = d.sectionGroups ?? [];
  const live = l?.sectionGroups ?? [];
  countLive(ctx, 'site-section-group', live.length);
  const slotByPath = new Map(slots.map((s) => [s.d.path, s]));
  const groupSlots: GroupSlot[] = [];
  const wantedGroupOf = new Map<SectionSlot, GroupSlot>();
  // Live groups whose memberships the config leaves alone (`sections` omitted).
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
      drafts.add({
        key,
        action: 'create',
        kind: 'site-section-group',
        address: addr,
        before: null,
        after: {
          title: dg.title,
          ...(dg.icon !== undefined ? { icon: dg.icon } : {}),
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
    const diff = changedFields(dg, lg, ['title', 'icon']);
    if (diff)
      drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'site-section-group',
        address: addr,
        ...diff,
        op: { type: 'update-section-group', org, site: site.ref, group: slot.ref, patch: diff.after },
      });
  }
  const deleted = new Map<string, string>();
  for (const lg of leftover) {
    const addr = groupAddress(site.addr, lg.title);
    const deleteKey = pruneOrList(ctx, {
      key: `delete:${addr}#${lg.id}`,
      kind: 'site-section-group',
      address: addr,
      before: { title: lg.title },
      op: { type: 'delete-section-group', org, site: site.ref, group: liveRef(lg.id) },
    });
    if (deleteKey) deleted.set(lg.id, deleteKey);
  }

  // Membership of every section the config describes. A section has a single group: joining
  // another group moves it there in one call. A group the config omits is left alone with its
  // memberships unless it is pruned (its deletion ends them); so is a group that omits `sections`.
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
      drafts.add({
        key: `create:${addr}`,
        action: leaving === null ? 'create' : 'update',
        kind: 'section-group-membership',
        address: addr,
        before: leaving === null ? null : { group: leaving },
        after: { group: want.title },
        deps: [s.createKey],
        op: { type: 'add-group-section', org, site: site.ref, group: want.ref, section: s.ref },
      });
      continue;
    }
    if (leaving === null || !managedIds.has(have!) || membersUnmanaged.has(have!)) continue;
    const addr = sectionAddress(groupAddress(site.addr, leaving), s.d.path);
    drafts.add({
      key: `delete:${addr}`,
      action: 'delete',
      kind: 'section-group-membership',
      address: addr,
      before: { group: leaving },
      after: null,
      op: { type: 'remove-group-section', org, site: site.ref, group: liveRef(have!), section: s.ref },
    });
  }

  const current = [
    ...live.map((lg) => groupSlots.find((g) => g.liveId === lg.id)).filter((g): g is GroupSlot => !!g),
    ...groupSlots.filter((g) => !g.liveId),
  ];
  addMoves(
    drafts,
    'site-section-group',
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
