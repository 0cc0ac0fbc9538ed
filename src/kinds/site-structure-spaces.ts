import { SET_AFTER_CREATION } from '../model/index.js';
import type { Ref } from '../model/index.js';
import {
  sectionAddress,
  type DesiredSiteSpace,
  type LiveSection,
  type LiveSiteSpace,
} from './site-section.js';
import { siteSpaceAddress } from './site-space.js';
import { countLive } from '../diff/context.js';
import { changedFields, createdRef, liveRef } from '../diff/draft.js';
import type { Container, SpacePlacement, Structure } from './site-structure-types.js';
import { overrideCustomization } from './site-space-overrides.js';
import { SITE_SPACE_FIELDS, setAfterCreation, siteSpaceUnchanged } from './site-structure-fields.js';

/**
 * Step 3 of the structure diff (site-structure-diff.ts): site spaces across the whole site, where
 * a space lives in one place: kept, updated, moved between places, or pruned.
 */

/** Where each space of the site is now: its live site space, and the section holding it (null: the root). */
type LiveLocation = { ss: LiveSiteSpace; section: LiveSection | null };

/**
 * A site space's place in the plan. Its address and live reference are made when first read: most
 * site spaces of most plans keep their place and fields, and nothing reads either (issue 33). Its
 * keys are given to the constructor, never set after: V8 keeps a field written once constant, and
 * the first key set after construction deoptimized the structure diff's code (issue 33).
 */
export class Placement implements SpacePlacement {
  constructor(
    readonly d: DesiredSiteSpace,
    readonly container: Container,
    readonly live: LiveSiteSpace | undefined,
    readonly createKey: string | undefined = undefined,
    readonly updateKey: string | undefined = undefined,
    private reference: Ref | undefined = undefined,
    private address: string | undefined = undefined,
  ) {}
  get addr(): string {
    return (this.address ??= siteSpaceAddress(this.container.addr, this.d.space));
  }
  get ref(): Ref {
    return (this.reference ??= this.live ? liveRef(this.live.id) : { id: '' });
  }
}

/** The last of `list` whose space is `space` (the live read's last wins, as a map's would). */
function lastOf(list: readonly LiveSiteSpace[], space: string): LiveSiteSpace | undefined {
  for (let i = list.length - 1; i >= 0; i -= 1) if (list[i]!.space === space) return list[i];
  return undefined;
}

/** 3. Site spaces, across the whole site: a space lives in one place per site. */
export function placeSiteSpaces(s: Structure): void {
  // One map, space to the section holding its live site space (null: the root; the root's win),
  // and the site space found in that section's short list (issue 33: allocation).
  const holder = new Map<string, LiveSection | null>();
  for (const ls of s.liveSections) for (const ss of ls.spaces) holder.set(ss.space, ls);
  for (const ss of s.root?.live ?? []) holder.set(ss.space, null);
  for (const c of s.containers) if (c.slot?.l || c === s.root) countLive(s.ctx, 'site-space', c.live.length);

  for (const c of s.containers) {
    const list = c.slot ? c.slot.d.spaces : (s.d.spaces ?? []);
    let previousInContainer: string | undefined;
    for (let index = 0; index < list.length; index += 1) {
      const ds = list[index]!;
      const section = holder.get(ds.space);
      if (section === undefined) {
        previousInContainer = moveSiteSpaceHere(s, c, ds, index, undefined, previousInContainer);
        continue;
      }
      const ss = lastOf(section ? section.spaces : s.root!.live, ds.space)!;
      const here = c.slot ? section !== null && section === c.slot.l : section === null;
      if (here) {
        keepSiteSpace(s, c, ds, ss);
        continue;
      }
      if (section && s.held.get(ds.space) === section) {
        s.stays(ds.space, section);
        continue;
      }
      previousInContainer = moveSiteSpaceHere(s, c, ds, index, { ss, section }, previousInContainer);
    }
  }
}

/** A site space already in its place: its fields. */
function keepSiteSpace(s: Structure, c: Container, ds: DesiredSiteSpace, ss: LiveSiteSpace): void {
  const { org, site } = s;
  const diff = siteSpaceUnchanged(ds, ss) ? null : changedFields(ds, ss, SITE_SPACE_FIELDS);
  let p: Placement;
  if (diff) {
    const addr = siteSpaceAddress(c.addr, ds.space);
    const ref = liveRef(ss.id);
    const updateKey = s.siteSpaces.update({
      address: addr,
      ...diff,
      op: { type: 'update-site-space', org, site: site.ref, siteSpace: ref, patch: diff.after },
    });
    p = new Placement(ds, c, ss, undefined, updateKey, ref, addr);
  } else p = new Placement(ds, c, ss);
  overrideCustomization(s, p);
  c.placements.push(p);
}

/**
 * A site space elsewhere (or nowhere): take it out of its old place, then create it here (the first
 * space of a created section comes with the section). Returns the key the next creation waits for.
 */
function moveSiteSpaceHere(
  s: Structure,
  c: Container,
  ds: DesiredSiteSpace,
  index: number,
  loc: LiveLocation | undefined,
  previousInContainer: string | undefined,
): string | undefined {
  const { org, site } = s;
  const freed = loc ? freeSiteSpace(s, c, ds, loc) : undefined;
  const addr = siteSpaceAddress(c.addr, ds.space);
  const withSection = c.slot?.createKey !== undefined && index === 0;
  let createKey: string;
  let ref: Ref;
  if (c.slot?.createKey && withSection) {
    createKey = c.slot.createKey;
    ref = createdRef(c.slot.createKey, `siteSpace:${ds.space}`);
    s.ctx.drafts.depend(c.slot.createKey, freed);
  } else {
    const draft = ds.draft ? { draft: true } : {};
    createKey = s.siteSpaces.create({
      address: addr,
      after: { space: ds.space, ...draft },
      deps: [site.createKey, c.slot?.createKey, freed, previousInContainer],
      op: {
        type: 'create-site-space',
        org,
        site: site.ref,
        spaceId: ds.space,
        ...(c.slot ? { section: c.slot.ref } : {}),
        ...draft,
      },
    });
    ref = createdRef(createKey);
  }
  // A section's first site space comes with it, live: a draft one becomes a draft right after.
  const follow = setAfterCreation(
    ds,
    withSection ? SITE_SPACE_FIELDS : SITE_SPACE_FIELDS.filter((f) => f !== 'draft'),
  );
  const updateKey = follow
    ? s.siteSpaces.update({
        address: addr,
        before: null,
        after: follow,
        deps: [createKey],
        note: SET_AFTER_CREATION,
        op: { type: 'update-site-space', org, site: site.ref, siteSpace: ref, patch: follow },
      })
    : undefined;
  const p = new Placement(ds, c, undefined, createKey, updateKey, ref, addr);
  overrideCustomization(s, p);
  c.placements.push(p);
  return createKey;
}

/** The key of what frees a space's old place: its section's deletion, or its own. */
function freeSiteSpace(s: Structure, c: Container, ds: DesiredSiteSpace, loc: LiveLocation): string {
  const { org, site } = s;
  const freed = loc.section ? s.deletedSections.get(loc.section.id) : undefined;
  if (freed) return freed;
  // Named by the section's final path, as every change inside a renamed section is.
  const from = loc.section
    ? (s.slots.find((slot) => slot.l === loc.section)?.addr ?? sectionAddress(site.addr, loc.section.path))
    : site.addr;
  const oldAddr = siteSpaceAddress(from, ds.space);
  const key = s.siteSpaces.delete({
    key: `delete:${oldAddr}#${loc.ss.id}`,
    address: oldAddr,
    before: { path: loc.ss.path },
    note: `moves to ${c.addr}: the API cannot move a site space between sections`,
    op: { type: 'delete-site-space', org, site: site.ref, siteSpace: liveRef(loc.ss.id) },
  });
  s.movedOut.set(loc.ss.id, key);
  return key;
}

/** Live site spaces of managed places that the config does not want anywhere in the site. */
export function pruneSiteSpaces(s: Structure): void {
  // The spaces the config wants in the site, gathered only when a place has a live site space
  // that no placement keeps (issue 33: most places keep all theirs).
  let wantedSpaces: Set<string> | undefined;
  for (const c of s.containers) {
    if (c.slot && !c.slot.l) continue;
    if (keepsAll(c)) continue;
    for (const ss of c.live) {
      wantedSpaces ??= spacesWanted(s);
      if (wantedSpaces.has(ss.space)) continue;
      const deleteKey = s.siteSpaces.prune({
        address: siteSpaceAddress(c.addr, ss.space),
        id: ss.id,
        before: { path: ss.path },
        op: { type: 'delete-site-space', org: s.org, site: s.site.ref, siteSpace: liveRef(ss.id) },
      });
      if (deleteKey) s.movedOut.set(ss.id, deleteKey);
    }
  }
}

/**
 * Whether placements keep each of the place's live site spaces, in live order (so none is pruned;
 * any other case goes through the set of wanted spaces).
 */
function keepsAll(c: Container): boolean {
  let j = 0;
  for (const p of c.placements)
    if (p.live) {
      if (c.live[j] !== p.live) return false;
      j += 1;
    }
  return j === c.live.length;
}

/** Every space the config places in the site. */
function spacesWanted(s: Structure): Set<string> {
  const wanted = new Set<string>();
  for (const c of s.containers)
    for (const ds of (c.slot ? c.slot.d.spaces : s.d.spaces) ?? []) wanted.add(ds.space);
  return wanted;
}
