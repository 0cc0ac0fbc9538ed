import type { KindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import { addMoves } from '../diff/order.js';
import type { NavSlot, SiteScope } from '../diff/site-scope.js';
import type { Patch, Position, Ref } from '../model/change.js';
import { anchorsFirst, disturbs, LINK, type NavType, type Neighbour } from './external-link-place.js';

/**
 * The order of a site's external links (today's API), planned once their creations and updates
 * are: the links at the root without `after` among themselves, then each link with `after` right
 * after the item it names. Beside external-link.ts, which plans the rest.
 */

export type ExternalLinkOp =
  | {
      type: 'create-external-link';
      org: string;
      site: Ref;
      title: string;
      url: string;
      fields: Patch;
    }
  | { type: 'update-external-link'; org: string; site: Ref; link: Ref; patch: Patch }
  | { type: 'delete-external-link'; org: string; site: Ref; link: Ref }
  | {
      type: 'move-external-link';
      org: string;
      site: Ref;
      link: Ref;
      position: Position;
      /** What it is placed next to, when not a link (a section or a group). */
      anchorType?: NavType;
    };

export type DesiredExternalLink = {
  title: string;
  id?: string;
  previously?: string[];
  url: string;
  description?: string | null;
  icon?: string | null;
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  /** The title of its section group; null: the root; omitted: unmanaged. */
  group?: string | null;
  /** The section path, group title or link title it comes right after (same level). */
  after?: string;
};
export type LiveExternalLink = {
  id: string;
  title: string;
  url: string;
  description: string | null;
  icon: string | null;
  draft: boolean;
  localizedTitle: Record<string, string>;
  /** The id of the section group it is in (null: the site's root). */
  group: string | null;
  /** The item right before it at its level (null: it is first). */
  prev: Neighbour | null;
};

/** A link of the diff: the config's, the live one paired with it, how to reference it. */
export type Slot = {
  d: DesiredExternalLink;
  l?: LiveExternalLink;
  ref: Ref;
  addr: string;
  createKey?: string;
  /** The key of the change that puts it in another group (or at the root). */
  arrival?: string;
};

/** The group a link is wanted in: a title, null for the root, undefined where it is (unmanaged). */
export const wantedGroup = (d: DesiredExternalLink): string | null | undefined =>
  d.group !== undefined ? d.group : d.after !== undefined ? null : undefined;

/** The links at the root without `after` keep the list's order among themselves: live ones where they are, new ones last. */
export function orderRootLinks(
  ctx: DiffContext,
  drafts: KindDrafts<ExternalLinkOp>,
  site: SiteScope,
  live: LiveExternalLink[],
  slots: Slot[],
): void {
  const atRoot = (s: Slot) => {
    const want = wantedGroup(s.d);
    return want === undefined ? !s.l || s.l.group === null : want === null;
  };
  const root = slots.filter((s) => s.d.after === undefined && atRoot(s));
  const current = [
    ...live.map((l) => root.find((s) => s.l === l && !s.arrival)).filter((s): s is Slot => !!s),
    ...root.filter((s) => s.arrival),
  ];
  // A move waits for its link and its anchor to be where they go (created or moved there).
  const movable = new Map(root.map((s): [Slot, Slot] => [s, { ...s, createKey: s.arrival }]));
  addMoves<Slot, ExternalLinkOp>(
    drafts,
    root.map((s) => movable.get(s)!),
    current.map((s) => movable.get(s)!),
    (s) => s.d.title,
    (item, position) => ({
      type: 'move-external-link',
      org: ctx.org,
      site: site.ref,
      link: item.ref,
      position,
    }),
  );
}

/** What a link's `after` names, as the sort call and the plan name it. */
function anchorOf(site: SiteScope, slots: Slot[], name: string): (NavSlot & { type: NavType }) | undefined {
  const item = site.nav?.items.get(name);
  if (item) return item;
  const link = slots.find((s) => s.d.title === name);
  return link ? { ref: link.ref, liveId: link.l?.id, createKey: link.createKey, type: LINK } : undefined;
}

/**
 * Each link with `after`, right after the item it names: one sort call when it is elsewhere, new,
 * moved into another group, or when another change of the plan comes between them. The calls run
 * after the site's other moves (which they would otherwise undo), anchors first.
 */
export function placeAfter(
  ctx: DiffContext,
  drafts: KindDrafts<ExternalLinkOp>,
  site: SiteScope,
  slots: Slot[],
  /** The live links, and the ids of those the plan deletes (not in the way once gone). */
  live: { links: readonly LiveExternalLink[]; deleted: ReadonlySet<string> },
): void {
  const placedKeys = new Map<string, string>();
  const prevOf = (l: LiveExternalLink | undefined) => {
    let prev = l?.prev ?? null;
    for (let n = 0; prev?.type === LINK && live.deleted.has(prev.id) && n <= live.links.length; n += 1) {
      const id: string = prev.id;
      prev = live.links.find((x) => x.id === id)?.prev ?? null;
    }
    return prev;
  };
  for (const s of anchorsFirst(slots.filter((x) => x.d.after !== undefined))) {
    const name = s.d.after!;
    const anchor = anchorOf(site, slots, name);
    if (!anchor) continue;
    const mine = ctx.drafts.drafts.filter((x) => x.address.startsWith(`${site.addr}/`));
    const anchorMoved =
      anchor.createKey !== undefined ||
      anchor.arrival !== undefined ||
      placedKeys.has(name) ||
      mine.some((x) => x.action === 'move' && x.kind === anchor.type && x.address.endsWith(`/${name}`));
    const prev = prevOf(s.l);
    const inPlace = !s.arrival && prev?.id === anchor.liveId && prev?.type === anchor.type && !anchorMoved;
    if (inPlace && !mine.some((x) => disturbs(x, site.addr, { type: anchor.type, name }, s.d.title)))
      continue;
    const key = drafts.move({
      address: s.addr,
      key: `move:${s.addr}:after`,
      before: null,
      after: { after: name },
      deps: [
        s.arrival,
        anchor.createKey,
        anchor.arrival,
        placedKeys.get(name),
        // After the site's other moves and moves into groups: they could come in between.
        ...mine.filter((x) => x.action === 'move' || x.key === anchor.arrival).map((x) => x.key),
      ],
      op: {
        type: 'move-external-link',
        org: ctx.org,
        site: site.ref,
        link: s.ref,
        position: { after: anchor.ref },
        anchorType: anchor.type,
      },
    });
    placedKeys.set(s.d.title, key);
  }
}
