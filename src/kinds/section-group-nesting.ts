import type { Ref } from '../model/index.js';

/**
 * Nested section groups (today's API: a group's parent is a field of it, given on creation and
 * changed by its update): the pure parts of their diff and checks, beside section-group-diff.ts,
 * which uses them. Written over what they need of a group (a title, a parent), not its kind.
 */

/** A group of the config: its title and the title of its parent (null: the root; undefined: unmanaged). */
type Desired = { title: string; parent?: string | null };
/** A live group: its id, title and the id of its parent (null: the root). */
type Live = { id: string; title: string; parent: string | null };

/** How deep each group of the config is nested (0: at the root, or its parent unmanaged or unknown). */
function depths<D extends Desired>(desired: readonly D[]): Map<D, number> {
  const byTitle = new Map(desired.map((g) => [g.title, g]));
  const out = new Map<D, number>();
  const depth = (g: D, seen: Set<D>): number => {
    const known = out.get(g);
    if (known !== undefined) return known;
    const parent = g.parent ? byTitle.get(g.parent) : undefined;
    // A cycle is refused at validation; here it only must not loop.
    const d = parent && !seen.has(parent) ? depth(parent, new Set([...seen, g])) + 1 : 0;
    out.set(g, d);
    return d;
  };
  for (const g of desired) depth(g, new Set([g]));
  return out;
}

/** The groups, parents before the groups nested in them (stable: siblings keep the config's order). */
export function parentsFirst<D extends Desired>(desired: readonly D[]): D[] {
  const d = depths(desired);
  return [...desired].sort((a, b) => d.get(a)! - d.get(b)!);
}

/**
 * The groups of the config that name an unknown parent or are nested in themselves (through
 * others): `[index, message]`, for the located errors of validation.
 */
export function nestingIssues(
  groups: readonly { title: string; parent?: string | null | undefined }[],
): [number, string][] {
  const titles = groups.map((g) => g.title);
  const issues: [number, string][] = [];
  groups.forEach((g, i) => {
    if (g.parent === undefined || g.parent === null) return;
    const named = titles.filter((t) => t === g.parent).length;
    if (named === 0) issues.push([i, `no section group titled "${g.parent}" in this site`]);
    else if (named > 1)
      issues.push([i, `several section groups are titled "${g.parent}": the parent is ambiguous`]);
    else {
      const chain = [g.title];
      for (
        let at: string | null | undefined = g.parent;
        at;
        at = groups.find((x) => x.title === at)?.parent
      ) {
        chain.push(at);
        if (at === g.title) {
          issues.push([i, `a section group cannot be nested in itself (${chain.join(' → ')})`]);
          break;
        }
        if (chain.length > groups.length + 1) break;
      }
    }
  });
  return issues;
}

/** A group of the diff: its title, how to reference it, and its live self (absent: created). */
export type NestedSlot = {
  title: string;
  addr: string;
  ref: Ref;
  d: Desired;
  l?: Live;
  createKey?: string;
  /** The key of the change that puts it in its (new) parent: its creation or its update. */
  arrival?: string;
};

/** The level a group is wanted at: its parent's title, '' for the root (live parent kept where unmanaged). */
export function wantedLevel(slot: NestedSlot, liveTitle: (id: string) => string): string {
  const parent = slot.d.parent;
  if (parent !== undefined) return parent ?? '';
  return slot.l?.parent ? liveTitle(slot.l.parent) : '';
}

/** The level a live group is at now ('' for the root). */
const liveLevel = (l: Live, liveTitle: (id: string) => string): string =>
  l.parent ? liveTitle(l.parent) : '';

/**
 * A live group's change of parent, if the config asks one: the plan's before and after (by title),
 * and the value of the update's field (a reference or null).
 */
export function parentChange(
  slot: NestedSlot,
  parentSlot: (title: string) => NestedSlot | undefined,
  liveTitle: (id: string) => string,
): { before: string | null; after: string | null; field: unknown } | undefined {
  const want = slot.d.parent;
  if (want === undefined || !slot.l) return undefined;
  const have = slot.l.parent;
  if (want === null) return have === null ? undefined : { before: liveTitle(have), after: null, field: null };
  const p = parentSlot(want);
  if (!p || (p.l && p.l.id === have)) return undefined;
  return { before: have === null ? null : liveTitle(have), after: want, field: { $ref: p.ref } };
}

/**
 * The order in which each level's groups are now, as the diff sees it once its creations and
 * moves into other groups ran: the groups that stay in place in live order, then those created
 * there, then those moved there (each appended by the API), by level.
 */
export function levelsNow(
  slots: readonly NestedSlot[],
  live: readonly Live[],
  liveTitle: (id: string) => string,
  moved: ReadonlySet<NestedSlot>,
): Map<string, NestedSlot[]> {
  const out = new Map<string, NestedSlot[]>();
  const add = (level: string, s: NestedSlot) => out.set(level, [...(out.get(level) ?? []), s]);
  for (const l of live) {
    const s = slots.find((x) => x.l === l);
    if (s && !moved.has(s)) add(liveLevel(l, liveTitle), s);
  }
  for (const s of slots) if (!s.l) add(wantedLevel(s, liveTitle), s);
  for (const s of slots) if (moved.has(s)) add(wantedLevel(s, liveTitle), s);
  return out;
}

/** Live groups to delete, the innermost first (a group's deletion waits for those nested in it). */
export function innermostFirst<L extends Live>(leftover: readonly L[]): L[] {
  const byId = new Map(leftover.map((g) => [g.id, g]));
  const depth = (g: L): number => {
    let d = 0;
    for (let p = g.parent; p && byId.has(p) && d <= leftover.length; p = byId.get(p)!.parent) d += 1;
    return d;
  };
  return [...leftover].sort((a, b) => depth(b) - depth(a));
}
