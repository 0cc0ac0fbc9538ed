import { randomBytes } from 'node:crypto';
import { notFound } from './errors.js';
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

export function findSite(org: EmuOrganization, siteId: string): EmuSite {
  const site = org.sites.find((s) => s.id === siteId);
  if (!site) throw notFound(`site ${siteId} not found`);
  return site;
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

export function findById<T extends { id: string }>(items: T[], id: string, what: string): T {
  const item = items.find((i) => i.id === id);
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
