import { sectionAddress, type LiveSiteSpace, type SectionOp, type SectionSlot } from './site-section.js';
import { siteSpaceAddress, type SiteSpaceOp } from './site-space.js';
import { keepPathsUnique, type PathItem } from '../diff/paths.js';
import type { Container, SpacePlacement, Structure } from './site-structure-types.js';

/**
 * Step 5 of the structure diff (site-structure-diff.ts): paths stay unique in each scope (the
 * site's sections, the site spaces of one place) while they change.
 */

/** 5. Paths stay unique in each scope while they change. */
export function keepStructurePathsUnique(s: Structure, sectionSetKeys: Map<SectionSlot, string>): void {
  // A scope where no path is set has nothing to order (what keepPathsUnique looks for first): its
  // items are not built (issue 33: allocation).
  const sectionPathSet = s.slots.some((slot) => {
    const want = slot.l && slot.l.path === slot.d.path ? null : slot.d.path;
    return want !== null && want !== (slot.l?.path ?? null) && !!sectionSetKeys.get(slot);
  });
  if (sectionPathSet) keepSectionPathsUnique(s, sectionSetKeys);
  // The check here, the work in a function of its own: called for the few places where a path
  // changes to one the place holds, that one is seldom hot enough for V8 to compile (issue 33).
  for (const c of s.containers) if (pathSetOnHeld(c)) keepSiteSpacePathsUnique(s, c);
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

/** Paths of the site spaces of one place stay unique while they change (one sets a path: `pathSetIn`). */
function keepSiteSpacePathsUnique(s: Structure, c: Container): void {
  const { ctx, org, site } = s;
  const mine = c.placements;
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

/** A place larger than this is handed to keepPathsUnique whenever a path is set (its search is indexed). */
const SEARCHED_PLACE = 32;

/**
 * Whether an update of one of the placements sets its path to one that a live site space of the
 * place (or a placement's) holds now. Only then does keepPathsUnique find a holder, and so order
 * or refuse anything: a path set to a free one (every renamed path of the 99,884-resource org) is
 * skipped without building the items, and the ordering code is left cold (issue 33, seventeenth pass).
 */
function pathSetOnHeld(c: Container): boolean {
  const mine = c.placements;
  // A kept site space is both a placement and one of the place's live ones: the larger count is its size.
  const large = Math.max(mine.length, c.live.length) > SEARCHED_PLACE;
  for (const p of mine) {
    const want = p.d.path;
    if (!p.updateKey || want === undefined || want === (p.live?.path ?? null)) continue;
    if (large || held(c, want)) return true;
  }
  return false;
}

/** Whether `path` is held by a live site space of the place or by the live site space of one of its placements. */
function held(c: Container, path: string): boolean {
  for (const ss of c.live) if (ss.path === path) return true;
  for (const p of c.placements) if (p.live?.path === path) return true;
  return false;
}
