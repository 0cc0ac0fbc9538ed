import { randomBytes } from 'node:crypto';
import { notFound } from './errors.js';
import { findKeyed, type Memo } from './memo.js';
import type { EmuOrganization, EmuSite, EmuSpace, EmulatorState } from './state.js';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export function now(): string {
  return new Date().toISOString();
}

export function findOrg(state: EmulatorState, orgId: string): EmuOrganization {
  const org = state.organizations.find((o) => o.id === orgId);
  if (!org) throw notFound(`organization ${orgId} not found`);
  return org;
}

export function findSite(org: EmuOrganization, siteId: string, memo?: Memo): EmuSite {
  const site = findKeyed(memo, org.sites, 'id', idOf, siteId);
  if (!site) throw notFound(`site ${siteId} not found`);
  return site;
}

/** Per spaces array: the position of each id's first occurrence, and the length it was built at. */
const spaceIndex = new WeakMap<EmuSpace[], { length: number; at: Map<string, number> }>();

/**
 * The organization's space with this id (the first, as `find` would), through an index of the
 * spaces array: a site-space list of a large organization would otherwise scan every space for
 * every item. State may be changed in place (tests do): a hit is checked against the array, and a
 * changed length, a stale position or a miss falls back to scanning and rebuilds the index.
 */
export function spaceIn(org: EmuOrganization, spaceId: string): EmuSpace | undefined {
  const spaces = org.spaces;
  let index = spaceIndex.get(spaces);
  if (!index || index.length !== spaces.length) index = indexSpaces(spaces);
  const i = index.at.get(spaceId);
  if (i !== undefined && spaces[i]?.id === spaceId) return spaces[i];
  const found = spaces.find((s) => s.id === spaceId);
  if (found) indexSpaces(spaces);
  return found;
}

function indexSpaces(spaces: EmuSpace[]): { length: number; at: Map<string, number> } {
  const at = new Map<string, number>();
  spaces.forEach((s, i) => {
    if (!at.has(s.id)) at.set(s.id, i);
  });
  const index = { length: spaces.length, at };
  spaceIndex.set(spaces, index);
  return index;
}

export function findSpaceAnywhere(
  state: EmulatorState,
  spaceId: string,
): { org: EmuOrganization; space: EmuSpace } {
  for (const org of state.organizations) {
    const space = org.spaces.find((s) => s.id === spaceId);
    if (space) return { org, space };
  }
  throw notFound(`space ${spaceId} not found`);
}

const idOf = (item: { id: string }) => item.id;

/** The item with this id (the first, as `find` would); through an index when a memo is given. */
export function findById<T extends { id: string }>(items: T[], id: string, what: string, memo?: Memo): T {
  const item = findKeyed(memo, items, 'id', idOf, id);
  if (!item) throw notFound(`${what} ${id} not found`);
  return item;
}

export function slugify(text: string, fallback: string): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return slug.length > 0 ? slug : fallback;
}

/** `base`, or `base-2`, `base-3`... whichever is not taken. */
export function uniquePath(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Move `item` inside `list` before or after `anchor` (both already in `list`). */
export function placeRelative<T>(list: T[], item: T, anchor: T, where: 'before' | 'after'): void {
  const from = list.indexOf(item);
  list.splice(from, 1);
  const at = list.indexOf(anchor);
  list.splice(where === 'before' ? at : at + 1, 0, item);
}
