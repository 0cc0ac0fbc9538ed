import type { KindDrafts } from '../diff/builder.js';
import { pairByIdentity, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, liveRef } from '../diff/draft.js';
import type { NavSlot, SiteScope } from '../diff/site-scope.js';
import {
  orderRootLinks,
  placeAfter,
  wantedGroup,
  type DesiredExternalLink,
  type ExternalLinkOp,
  type LiveExternalLink,
  type Slot,
} from './external-link-order.js';
import { defined } from './fields.js';

/**
 * The diff steps of a site's external links (today's API): pairing by identity, creations (in list order, in their group), updates (with a move into another group), deletions,
 * then their order (external-link-order.ts). The kind's module gives its drafts and addresses.
 */

const FIELDS = ['title', 'url', 'description', 'icon', 'draft', 'localizedTitle'] as const;

export function diffLinks(
  ctx: DiffContext,
  drafts: KindDrafts<ExternalLinkOp>,
  site: SiteScope,
  /** How problems name a link of this site (`site "Docs": external link`). */
  what: string,
  { desired, live }: { desired: DesiredExternalLink[]; live: LiveExternalLink[] },
  address: (title: string) => string,
): void {
  const { org } = ctx;
  const { pairs, leftover } = pairByIdentity(ctx, what, desired, live, (x) => x.title);
  const groups = site.nav?.groups ?? new Map<string, NavSlot>();
  const slots: Slot[] = [];
  let previousCreate: string | undefined;
  for (const [d, l] of pairs) {
    const addr = address(d.title);
    if (!l) {
      const slot = createdLink(ctx, drafts, site, d, addr, groups, previousCreate);
      previousCreate = slot.createKey;
      slots.push(slot);
      continue;
    }
    const slot: Slot = { d, l, ref: liveRef(l.id), addr };
    slots.push(slot);
    updateLink(ctx, drafts, site, slot, l, groups);
  }
  const deleted = new Set<string>();
  for (const l of leftover)
    if (
      drafts.prune({
        address: address(l.title),
        id: l.id,
        before: { title: l.title, url: l.url },
        op: { type: 'delete-external-link', org, site: site.ref, link: liveRef(l.id) },
      })
    )
      deleted.add(l.id);
  orderRootLinks(ctx, drafts, site, live, slots);
  placeAfter(ctx, drafts, site, slots, { links: live, deleted });
}

/** A link the config adds: everything in one call, in its group, after the previous creation. */
function createdLink(
  ctx: DiffContext,
  drafts: KindDrafts<ExternalLinkOp>,
  site: SiteScope,
  d: DesiredExternalLink,
  addr: string,
  groups: Map<string, NavSlot>,
  previousCreate: string | undefined,
): Slot {
  const want = wantedGroup(d);
  const group = typeof want === 'string' ? groups.get(want) : undefined;
  // Everything in one call; a draft is created as a draft (never live in between).
  const plain = defined({
    description: d.description ?? undefined,
    icon: d.icon ?? undefined,
    draft: d.draft ? true : undefined,
    localizedTitle:
      d.localizedTitle && Object.keys(d.localizedTitle).length > 0 ? d.localizedTitle : undefined,
  });
  // Created in its group (`parent`), named by title in the plan.
  const fields = group ? { ...plain, parent: { $ref: group.ref } } : plain;
  const key = drafts.create({
    address: addr,
    after: { title: d.title, url: d.url, ...plain, ...(group ? { group: want } : {}) },
    // Created in list order: the API appends, so the planned order comes true.
    deps: [site.createKey, previousCreate, group?.createKey],
    op: { type: 'create-external-link', org: ctx.org, site: site.ref, title: d.title, url: d.url, fields },
  });
  return { d, ref: createdRef(key), addr, createKey: key, arrival: key };
}

/** A live link the config keeps: its changed fields, and its move into another group (or to the root), in one update. */
function updateLink(
  ctx: DiffContext,
  drafts: KindDrafts<ExternalLinkOp>,
  site: SiteScope,
  slot: Slot,
  l: LiveExternalLink,
  groups: Map<string, NavSlot>,
): void {
  const { d, addr } = slot;
  const want = wantedGroup(d);
  const group = typeof want === 'string' ? groups.get(want) : undefined;
  const groupTitle = (id: string | null) =>
    id === null ? null : ([...groups].find(([, g]) => g.liveId === id)?.[0] ?? id);
  const changed = changedFields(d, l, FIELDS);
  // Into another group (or to the root): the same update, with `parent`.
  const regroup =
    want !== undefined && (group ? group.liveId !== l.group : want !== null || l.group !== null);
  if (!changed && !regroup) return;
  slot.arrival = drafts.update({
    address: addr,
    before: { ...changed?.before, ...(regroup ? { group: groupTitle(l.group) } : {}) },
    after: { ...changed?.after, ...(regroup ? { group: want } : {}) },
    deps: [group?.createKey],
    op: {
      type: 'update-external-link',
      org: ctx.org,
      site: site.ref,
      link: liveRef(l.id),
      patch: { ...changed?.after, ...(regroup ? { parent: group ? { $ref: group.ref } : null } : {}) },
    },
  });
  if (!regroup) slot.arrival = undefined;
}
