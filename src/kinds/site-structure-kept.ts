import { liveRef } from '../diff/draft.js';
import { countLive, type DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import {
  sectionAddress,
  type DesiredSection,
  type DesiredSiteSpace,
  type DesiredStructure,
  type LiveSection,
  type LiveSiteSpace,
  type LiveStructure,
  type SectionSlot,
} from './site-section.js';
import { sectionUnchanged, siteSpaceUnchanged } from './site-structure-fields.js';
import { Placement } from './site-structure-spaces.js';
import { newStructure, type Container, type Structure } from './site-structure-types.js';
import { recordPaths } from './structure-paths.js';

/**
 * The structure of a site whose config entry reads as its live twin (issue 33: most sites of most
 * plans, every site of a drift check nobody changed): its diff (site-structure-diff.ts) pairs each
 * section with the live one at its place, keeps each site space where it is, and plans nothing.
 * That is found here in one indexed walk of both sides, without the pairing, placement, pruning,
 * uniqueness and ordering steps (their maps, sets, placements and containers a site), and the
 * diff's side effects are made as it makes them: the live counts, the section slots that the
 * groups' diff and the external links read, and the site's paths that the redirects read.
 *
 * "Reads as" is the full diff's own test, field for field, on exactly what it compares:
 * - the same sections in the same order, each at the live one's path (the pairing by path then
 *   pairs each with the live one at the same index, and no live section is left to delete);
 * - each section's fields unchanged (`sectionUnchanged`, what its update compares);
 * - the same site spaces in each place (section or root), in the same order, each with its fields
 *   unchanged (`siteSpaceUnchanged`) and without `customization` (its overrides compare with the
 *   site's document: left to the full diff);
 * - the default site space of each place and the site's default section already so.
 * A space is in one place of a site and a section path is given once (checkStructure refuses a
 * config that does otherwise, before any diff): equal index by index, the live side is as unique,
 * so the full diff's maps by space and by path find the same site space and section as the walk.
 */
export function structureAsLive(d: DesiredStructure, l: LiveStructure): boolean {
  if (d.sections && !sectionsAsLive(d.sections, l.sections ?? [])) return false;
  return !d.spaces || placeAsLive(d.spaces, l.spaces ?? []);
}

function sectionsAsLive(desired: readonly DesiredSection[], live: readonly LiveSection[]): boolean {
  if (desired.length !== live.length) return false;
  let siteDefault = false;
  for (let i = 0; i < desired.length; i += 1) {
    const ds = desired[i]!;
    const ls = live[i]!;
    if (ds.path !== ls.path || !sectionUnchanged(ds, ls) || !placeAsLive(ds.spaces, ls.spaces)) return false;
    // The site's default section is the first one the config makes so (setSiteDefaults).
    if (ds.default && !siteDefault) {
      if (!ls.default) return false;
      siteDefault = true;
    }
  }
  return true;
}

/** Whether a place's site spaces read as its live ones, its default site space included. */
function placeAsLive(desired: readonly DesiredSiteSpace[], live: readonly LiveSiteSpace[]): boolean {
  if (desired.length !== live.length) return false;
  let wantDefault: LiveSiteSpace | undefined;
  for (let k = 0; k < desired.length; k += 1) {
    const ds = desired[k]!;
    const ss = live[k]!;
    if (ds.space !== ss.space || ds.customization !== undefined || !siteSpaceUnchanged(ds, ss)) return false;
    if (ds.default && wantDefault === undefined) wantDefault = ss;
  }
  // The first default the config gives must be the live default (the first live one so).
  return wantDefault === undefined || wantDefault.id === firstDefault(live)?.id;
}

function firstDefault(live: readonly LiveSiteSpace[]): LiveSiteSpace | undefined {
  for (let k = 0; k < live.length; k += 1) if (live[k]!.default) return live[k];
  return undefined;
}

/**
 * What the structure diff leaves of a site that `structureAsLive`: the live sections and site
 * spaces it counts (as many, under the same kinds, in the same order), and the slots of its
 * sections, each paired with the live one at its index, made only when `slotsRead` (the groups'
 * diff or the external links read them).
 */
export function keptStructure(
  ctx: DiffContext,
  site: SiteScope,
  d: DesiredStructure,
  l: LiveStructure,
  slotsRead: boolean,
): SectionSlot[] {
  const liveSections = d.sections ? (l.sections ?? []) : [];
  countLive(ctx, 'site-section', liveSections.length);
  // One count per place (each section, then the root) in the full diff: their sum here.
  let siteSpaces = 0;
  for (let i = 0; i < liveSections.length; i += 1) siteSpaces += liveSections[i]!.spaces.length;
  if (d.spaces) siteSpaces += (l.spaces ?? []).length;
  if (liveSections.length > 0 || d.spaces) countLive(ctx, 'site-space', siteSpaces);
  if (!slotsRead && !site.pathsRead) return [];
  const slots: SectionSlot[] = [];
  for (let i = 0; i < liveSections.length; i += 1) {
    const ls = liveSections[i]!;
    const ds = d.sections![i]!;
    slots.push({ d: ds, l: ls, ref: liveRef(ls.id), addr: sectionAddress(site.addr, ds.path) });
  }
  if (site.pathsRead) recordPaths(keptAsStructure(ctx, site, d, l, liveSections, slots));
  return slots;
}

/**
 * The structure the full diff leaves of a site that `structureAsLive`, for its paths (where the
 * redirects read them, `pathsRead`): each section's slot and each site space's placement paired
 * with the live one at its index, nothing created, deleted or moved out.
 */
function keptAsStructure(
  ctx: DiffContext,
  site: SiteScope,
  d: DesiredStructure,
  l: LiveStructure,
  liveSections: LiveSection[],
  slots: SectionSlot[],
): Structure {
  const containers: Container[] = [];
  for (let i = 0; i < slots.length; i += 1)
    containers.push(keptPlace(slots[i]!, slots[i]!.addr, liveSections[i]!.spaces, slots[i]!.d.spaces));
  const root = d.spaces ? keptPlace(null, site.addr, l.spaces ?? [], d.spaces) : null;
  if (root) containers.push(root);
  return newStructure({
    ctx,
    site,
    d,
    liveSections,
    used: new Set(liveSections),
    slots,
    held: new Map(),
    stays: () => undefined,
    containers,
    root,
  });
}

/** A place (a section, or the root) whose site spaces each keep the live one at their index. */
function keptPlace(
  slot: SectionSlot | null,
  addr: string,
  live: LiveSiteSpace[],
  desired: readonly DesiredSiteSpace[],
): Container {
  const c: Container = { slot, addr, live, placements: [] };
  for (let k = 0; k < desired.length; k += 1) c.placements.push(new Placement(desired[k]!, c, live[k]!));
  return c;
}
