import { badRequest } from '../errors.js';
import { linksOf, placeInNav, type NavItem } from '../nav-order.js';
import type { EmuSite } from '../state.js';
import { findById } from '../store.js';

/** An item of the navigation and the group it is in (null: the root), or a 404 naming it. */
function find(site: EmuSite, item: NavItem): { parent: string | null } {
  if (item.type === 'site-section')
    return { parent: findById(site.sections, item.id, 'site section').groupId ?? null };
  if (item.type === 'site-section-group')
    return { parent: findById(site.groups, item.id, 'section group').parentId ?? null };
  return { parent: findById(linksOf(site), item.id, 'external link').groupId ?? null };
}

/**
 * Today's structure sort of a section, group or external link: right before or after any item of
 * the navigation. A group or a link is placed among its siblings only (the anchor must be at its
 * level); a section may be placed after any section, as the order of sections is the site's.
 */
export function sortNavigation(
  site: EmuSite,
  item: NavItem,
  anchor: NavItem,
  where: 'before' | 'after',
): void {
  const a = find(site, item);
  const b = find(site, anchor);
  if (item.type !== 'site-section' && a.parent !== b.parent)
    throw badRequest(`position.${where}: must be an item of the same level as the item`);
  if (item.type === 'site-section' && anchor.type !== 'site-section' && a.parent !== b.parent)
    throw badRequest(`position.${where}: must be an item of the same level as the item`);
  placeInNav(site, item.id, anchor.id, where);
}
