import type { Ref } from '../model/index.js';
import { sectionAddress, type LiveSection, type LiveSiteSpace } from './site-section.js';
import { siteSpaceAddress } from './site-space.js';
import { liveRef } from '../diff/draft.js';
import type { BrokenLinksPolicy, OldPath, PathTarget, SitePaths } from '../diff/site-paths.js';
import type { Structure } from './site-structure-types.js';

/** A target of the path map, with the fields it has. */
function target(
  type: PathTarget['type'],
  label: string,
  ref: Ref,
  path: string | undefined,
  createKey: string | undefined,
  liveId: string | undefined,
): PathTarget {
  // Assigned, not spread: one object per target (issue 33: allocation), keys in the same order.
  const t: PathTarget = { type, ref, label };
  if (path !== undefined) t.path = path;
  if (createKey) t.createKey = createKey;
  if (liveId) t.liveId = liveId;
  return t;
}

/**
 * 7. Where each path of the site leads after the plan, and what becomes of each live one: the
 *    redirects that keep published links working are planned from these (decision 36). Recorded
 *    as the site's `paths` only when a part reads them (`pathsRead`: the redirects, absent from
 *    the seed API): a site of 100 site spaces makes hundreds of objects for them (decision 42).
 *    Made now, not when first read: a getter would keep the whole structure alive with the site,
 *    long enough for the young generation to promote it (17 MB more peak for 100,000
 *    resources, decision 42, sixth pass).
 */
export function recordPaths(s: Structure): void {
  if (s.site.pathsRead) s.site.paths = sitePaths(s);
}

function sitePaths(s: Structure): SitePaths {
  const targets = pathsAfter(s);
  const { old, liveById } = oldPaths(s, targets);
  return { after: targets.after, old, liveById };
}

/** Where each path leads after the plan, with each space's and live section's target and the entries' own policies. */
type Targets = {
  after: Map<string, PathTarget>;
  bySpace: Map<string, PathTarget>;
  bySection: Map<LiveSection, PathTarget>;
  /** The entries' own `brokenLinks`, by live section and by space. */
  sectionPolicy: Map<LiveSection, BrokenLinksPolicy>;
  spacePolicy: Map<string, BrokenLinksPolicy>;
};

function pathsAfter(s: Structure): Targets {
  const after = new Map<string, PathTarget>();
  const bySpace = new Map<string, PathTarget>();
  const bySection = new Map<LiveSection, PathTarget>();
  const placedLive = new Set<LiveSiteSpace>();
  const sectionPolicy = new Map<LiveSection, BrokenLinksPolicy>();
  const spacePolicy = new Map<string, BrokenLinksPolicy>();
  for (const c of s.containers) {
    const base = c.slot ? `/${c.slot.d.path}` : '';
    if (c.slot?.l && c.slot.d.brokenLinks) sectionPolicy.set(c.slot.l, c.slot.d.brokenLinks);
    if (c.slot) {
      const t = target(
        'section-path',
        `section "${c.slot.d.path}"`,
        c.slot.ref,
        base,
        c.slot.createKey,
        c.slot.l?.id,
      );
      after.set(base, t);
      if (c.slot.l) bySection.set(c.slot.l, t);
    }
    for (const p of c.placements) {
      if (p.d.brokenLinks) spacePolicy.set(p.d.space, p.d.brokenLinks);
      if (p.live) placedLive.add(p.live);
      const segment = p.d.path ?? p.live?.path;
      const path = segment !== undefined ? `${base}/${segment}` : undefined;
      const t = target('space-path', `site space ${p.d.space}`, p.ref, path, p.createKey, p.live?.id);
      if (path !== undefined) after.set(path, t);
      bySpace.set(p.d.space, t);
    }
    // Live site spaces the plan leaves in place (prune off) keep their segment.
    for (const ss of c.live)
      if (!placedLive.has(ss) && !s.movedOut.has(ss.id))
        after.set(
          `${base}/${ss.path}`,
          target('space-path', `site space ${ss.space}`, liveRef(ss.id), undefined, undefined, ss.id),
        );
  }
  keptSectionPaths(s, after);
  return { after, bySpace, bySection, sectionPolicy, spacePolicy };
}

/** Sections the configuration leaves alone (prune off) keep their paths and site spaces. */
function keptSectionPaths(s: Structure, after: Map<string, PathTarget>): void {
  for (const ls of s.liveSections)
    if (!s.used.has(ls) && !s.deletedSections.has(ls.id)) {
      after.set(
        `/${ls.path}`,
        target('section-path', `section "${ls.path}"`, liveRef(ls.id), `/${ls.path}`, undefined, ls.id),
      );
      for (const ss of ls.spaces)
        if (!s.movedOut.has(ss.id))
          after.set(
            `/${ls.path}/${ss.path}`,
            target('space-path', `site space ${ss.space}`, liveRef(ss.id), undefined, undefined, ss.id),
          );
    }
}

/** What becomes of each live path (its target, policy and the changes that move it), and each live object's path by id. */
function oldPaths(
  s: Structure,
  { bySpace, bySection, sectionPolicy, spacePolicy }: Targets,
): { old: OldPath[]; liveById: Map<string, string> } {
  const old: OldPath[] = [];
  const liveById = new Map<string, string>();
  const { sectionAddresses, spaceAddresses } = changeAddresses(s);
  const spaceOld = (ss: LiveSiteSpace, base: string, section: LiveSection | null) => {
    const path = `${base}/${ss.path}`;
    liveById.set(ss.id, path);
    const t = bySpace.get(ss.space) ?? null;
    const newBase = section ? bySection.get(section)?.path : '';
    const keepsSegment = t !== null && newBase !== undefined && isJoined(t.path, newBase, ss.path);
    // A site space whose path changes only with its section's follows the section's own policy.
    const policy =
      spacePolicy.get(ss.space) ?? (section && keepsSegment ? sectionPolicy.get(section) : undefined);
    const o: OldPath = { path, label: `site space ${ss.space}`, target: t };
    if (policy) o.policy = policy;
    if (section && keepsSegment) o.under = base;
    o.addresses = spaceAddresses(ss, section);
    old.push(o);
  };
  for (const ls of s.liveSections) {
    const path = `/${ls.path}`;
    liveById.set(ls.id, path);
    const policy = sectionPolicy.get(ls);
    const o: OldPath = { path, label: `section "${ls.path}"`, target: bySection.get(ls) ?? null };
    if (policy) o.policy = policy;
    o.addresses = sectionAddresses(ls);
    old.push(o);
    for (const ss of ls.spaces) spaceOld(ss, path, ls);
  }
  for (const ss of s.root?.live ?? []) spaceOld(ss, '', null);
  return { old, liveById };
}

/** Whether `path` is `${base}/${segment}`, without building that string (once per site space). */
function isJoined(path: string | undefined, base: string, segment: string): boolean {
  return (
    path !== undefined &&
    path.length === base.length + 1 + segment.length &&
    path.startsWith(base) &&
    path.charCodeAt(base.length) === 47 &&
    path.endsWith(segment)
  );
}

/**
 * The addresses a live section's or site space's changes may have (by its path before the plan,
 * and after: a renamed section's changes are named by its new path), for `--target`.
 */
function changeAddresses(s: Structure) {
  // Each live section's addresses are built once, and read again for each of its site spaces.
  const addressesOf = new Map<LiveSection, string[]>();
  for (const slot of s.slots)
    if (slot.l) {
      const before = sectionAddress(s.site.addr, slot.l.path);
      if (!addressesOf.has(slot.l))
        addressesOf.set(slot.l, slot.addr !== before ? [before, slot.addr] : [before]);
    }
  const sectionAddresses = (ls: LiveSection) => {
    let known = addressesOf.get(ls);
    if (!known) addressesOf.set(ls, (known = [sectionAddress(s.site.addr, ls.path)]));
    return known;
  };
  const placed = new Map<string, string>();
  for (const c of s.containers) for (const p of c.placements) placed.set(p.d.space, p.addr);
  const root = [s.site.addr];
  const spaceAddresses = (ss: LiveSiteSpace, section: LiveSection | null) => {
    const all: string[] = [];
    for (const parent of section ? sectionAddresses(section) : root) {
      const a = siteSpaceAddress(parent, ss.space);
      if (!all.includes(a)) all.push(a);
    }
    const now = placed.get(ss.space);
    if (now !== undefined && !all.includes(now)) all.push(now);
    return all;
  };
  return { sectionAddresses, spaceAddresses };
}
