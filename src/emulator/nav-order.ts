import { placeRelative } from './store.js';
import type { EmuSite } from './state.js';

/**
 * The order of a site's navigation (today's API): sections, section groups and external links
 * share one order, and each level (the root, a group's children) shows its items in it. The
 * typed lists (`sections`, `groups`, the links) are kept sorted by it, so their list answers agree.
 */

/** A stored external link: where it is (null: the root). */
export type EmuLinkPlace = { id: string; groupId?: string | null };

/** The site's external links (a declared kind's list in the site, created by its first write). */
export const linksOf = (site: EmuSite): EmuLinkPlace[] => (site.externalLinks ?? []) as EmuLinkPlace[];

/** Every item's id in navigation order: the recorded order, then the items it lacks (sections, groups, links). */
export function navOrder(site: EmuSite): string[] {
  const all = [...site.sections, ...site.groups, ...linksOf(site)].map((x) => x.id);
  const known = new Set(all);
  const kept = (site.nav ?? []).filter((id) => known.has(id));
  const seen = new Set(kept);
  return [...kept, ...all.filter((id) => !seen.has(id))];
}

function setOrder(site: EmuSite, order: string[]): void {
  site.nav = order;
  const at = new Map(order.map((id, i) => [id, i]));
  const byOrder = (a: { id: string }, b: { id: string }) => at.get(a.id)! - at.get(b.id)!;
  site.sections.sort(byOrder);
  site.groups.sort(byOrder);
  linksOf(site).sort(byOrder);
}

/** An item the API appends: a creation, or an item moved into another group (last of its new level). */
export function toEnd(site: EmuSite, id: string): void {
  setOrder(site, [...navOrder(site).filter((x) => x !== id), id]);
}

/** One sort call: `id` right before or after `anchor` (any item of the site). */
export function placeInNav(site: EmuSite, id: string, anchor: string, where: 'before' | 'after'): void {
  const order = navOrder(site);
  if (id !== anchor) placeRelative(order, id, anchor, where);
  setOrder(site, order);
}

/** The parent group of a group (null: the root), and whether `id` is `ancestor` or inside it. */
export function isWithin(site: EmuSite, id: string, ancestor: string): boolean {
  for (let at: string | null | undefined = id; at; at = site.groups.find((g) => g.id === at)?.parentId)
    if (at === ancestor) return true;
  return false;
}

/** One item of a level of the navigation. */
export type NavItem =
  | { type: 'site-section'; id: string }
  | { type: 'site-section-group'; id: string }
  | { type: 'site-external-link'; id: string };

/** The items of one level (`parent` null: the root), in navigation order. */
export function levelOf(site: EmuSite, parent: string | null): NavItem[] {
  const here = new Map<string, NavItem>();
  for (const s of site.sections)
    if ((s.groupId ?? null) === parent) here.set(s.id, { type: 'site-section', id: s.id });
  for (const g of site.groups)
    if ((g.parentId ?? null) === parent) here.set(g.id, { type: 'site-section-group', id: g.id });
  for (const l of linksOf(site))
    if ((l.groupId ?? null) === parent) here.set(l.id, { type: 'site-external-link', id: l.id });
  return navOrder(site)
    .map((id) => here.get(id))
    .filter((x): x is NavItem => !!x);
}
