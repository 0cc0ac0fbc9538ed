import type { ApiCapabilities } from '../model/capabilities.js';
import type { Duplicate, Fields, OpShape, Renamable, Unmanaged } from '../model/index.js';
import type { DiffProblem, DiffWarning, DraftSet } from './draft.js';
import type { DiffProblemCode } from '../errors.js';
import { repeatsIn } from '../model/repeats.js';
import type { BrokenLinkFact, BrokenLinksPolicy, PlannedRedirect } from './site-paths.js';
import type { LiveTitleRefs } from './title-refs.js';

export type { BrokenLinkFact, PlannedRedirect };

/** What every kind's diff shares within one organization. */
export type DiffContext = {
  org: string;
  drafts: DraftSet;
  unmanaged: Unmanaged[];
  problems: DiffProblem[];
  prune: boolean;
  /** Members the config omits are removed only with this (`policy.pruneMembers`), never with `prune`. */
  pruneMembers: boolean;
  /** The floor of admins a plan may leave (`policy.minAdmins`). */
  minAdmins: number;
  /** Admins before and after the plan, when the members kind is diffed (for the minAdmins guard). */
  admins?: { before: number; after: number };
  /** Live resources of managed kinds seen (the "delete everything" guard), and per kind (ratio thresholds). */
  managedLive: { count: number; byKind?: Record<string, number> };
  /**
   * Keys of drafts that other kinds' changes depend on (a field created, replaced or updated before
   * its values are set), by a key the depending kind knows (`custom-field:<name>`).
   */
  dependedOn: Map<string, string>;
  /** The user the token belongs to (never removed), when a kind that needs it was read. */
  self: string | null;
  /** Members' user ids by e-mail in lower case, when the members list was read (a grant names a user). */
  userIds?: Map<string, string>;
  /** How to reference each site and team of the organization, by title (for settings and SAML). */
  siteRefs: LiveTitleRefs;
  teamRefs: LiveTitleRefs;
  /** What the target API can do: the diff asks it, never a flavor name. */
  caps: ApiCapabilities;
  warnings: DiffWarning[];
  /** Live objects that share the key of a desired one (left alone, named in the plan). */
  duplicates: Duplicate[];
  /** `policy.brokenLinks`: what a plan that takes published paths away does (decision 36). */
  brokenLinks: BrokenLinksPolicy;
  /** The redirects the plan adds for the paths it changes, and the published paths it would break. */
  links: { planned: PlannedRedirect[]; broken: BrokenLinkFact[] };
  /**
   * A partial plan's `--target` patterns: the paths it changes are those of the targeted
   * resources only, and so are the redirects it adds and the links it would break.
   */
  targets?: readonly string[];
};

/** `count` live resources of a managed kind were seen (the populations of the thresholds). */
export function countLive(ctx: DiffContext, kind: string, count: number): void {
  ctx.managedLive.count += count;
  const byKind = (ctx.managedLive.byKind ??= {});
  byKind[kind] = (byKind[kind] ?? 0) + count;
}

export function warn(ctx: DiffContext, message: string): void {
  ctx.warnings.push({ organization: ctx.org, message });
}

/** The organization cannot be planned: `code` says why (stable, see src/errors.ts). */
export function problem(ctx: DiffContext, message: string, code: DiffProblemCode): void {
  ctx.problems.push({ organization: ctx.org, message, code });
}

/**
 * Pair desired items with live ones: first by pinned id, then by the natural key, then by a
 * `previously` name (a rename without an id lookup). Two live items that share the key a desired
 * item would pair with are duplicates: a warning names them, the desired item and both live
 * items are left alone, and everything else still plans.
 */
export function pairByIdentity<D extends Renamable, L extends { id: string }>(
  ctx: DiffContext,
  what: string,
  desired: readonly D[],
  live: readonly L[],
  nameOf: (x: D | L) => string,
): { pairs: [D, L | undefined][]; leftover: L[] } {
  const inOrder = pairedInOrder(desired, live, nameOf);
  return inOrder !== undefined ? { pairs: inOrder, leftover: [] } : pairAll(ctx, what, desired, live, nameOf);
}

/** `pairByIdentity` by its maps, whatever the order (exported for its test against the pairs in order). */
export function pairAll<D extends Renamable, L extends { id: string }>(
  ctx: DiffContext,
  what: string,
  desired: readonly D[],
  live: readonly L[],
  nameOf: (x: D | L) => string,
): { pairs: [D, L | undefined][]; leftover: L[] } {
  const used = new Set<L>();
  const found = new Map<D, L | undefined>();
  // The live items by name: the first in `first`, any other with that name in `more` (duplicates
  // are rare: no array per item, issue 33). By id only when some entry is pinned (`pairPinned`).
  const first = new Map<string, L>();
  const more = new Map<string, L[]>();
  // Indexed loops: one call runs each over a whole kind (14,000 teams), mostly before it is
  // optimized, where each step of a for…of makes an iterator result (issue 33).
  for (let i = 0; i < live.length; i += 1) {
    const l = live[i]!;
    const name = nameOf(l);
    if (!first.has(name)) first.set(name, l);
    else {
      const list = more.get(name);
      if (list) list.push(l);
      else more.set(name, [l]);
    }
  }
  pairPinned(ctx, what, desired, live, nameOf, used, found);
  /** The live items named `name` not yet used, added to `out` once each, in live order. */
  const collect = (name: string, out: L[]): void => {
    const l = first.get(name);
    if (l === undefined) return;
    if (!used.has(l) && !out.includes(l)) out.push(l);
    for (const other of more.get(name) ?? []) if (!used.has(other) && !out.includes(other)) out.push(other);
  };
  const skipped = new Set<D>();
  const match = (d: D, names: string | readonly string[]): boolean => {
    const candidates: L[] = [];
    if (typeof names === 'string') collect(names, candidates);
    else for (const n of names) collect(n, candidates);
    if (candidates.length > 1) {
      duplicates(ctx, what, nameOf(d), candidates);
      for (const c of candidates) used.add(c);
      skipped.add(d);
      return true;
    }
    const l = candidates[0];
    if (!l) return false;
    used.add(l);
    found.set(d, l);
    return true;
  };
  const unmatched: D[] = [];
  for (let i = 0; i < desired.length; i += 1) {
    const d = desired[i]!;
    if (d.id === undefined && !match(d, nameOf(d))) unmatched.push(d);
  }
  for (const d of unmatched) match(d, d.previously ?? []);
  // In config order (the order of lists is display order); a pin that matched nothing is dropped.
  const pairs: [D, L | undefined][] = [];
  for (let i = 0; i < desired.length; i += 1) {
    const d = desired[i]!;
    if (!skipped.has(d) && (d.id === undefined || found.has(d))) pairs.push([d, found.get(d)]);
  }
  const leftover: L[] = [];
  for (let i = 0; i < live.length; i += 1) if (!used.has(live[i]!)) leftover.push(live[i]!);
  return { pairs, leftover };
}

/**
 * `pairByIdentity`'s pairs where the config lists the live items in their order, by name: as many
 * of each, the `i`th entry named as the `i`th live item, none pinned, and no live name twice. Each
 * entry is then paired with the one live item of its name, none is a duplicate and none is left
 * over, so the pairs are index by index, found without the maps, sets and closures of the general
 * pairing (a site's share links, each site's lists, a kind that did not change; issue 33).
 * Undefined where that is not so: the general pairing decides (exported for its test).
 */
export function pairedInOrder<D extends Renamable, L>(
  desired: readonly D[],
  live: readonly L[],
  nameOf: (x: D | L) => string,
): [D, L][] | undefined {
  const n = desired.length;
  if (live.length !== n) return undefined;
  for (let i = 0; i < n; i += 1) {
    const d = desired[i]!;
    if (d.id !== undefined || nameOf(d) !== nameOf(live[i]!)) return undefined;
  }
  if (repeatsIn(live, nameOf) !== undefined) return undefined;
  // Pushed, as the general pairing's are: the callers' loops read one elements kind.
  const pairs: [D, L][] = [];
  for (let i = 0; i < n; i += 1) pairs.push([desired[i]!, live[i]!]);
  return pairs;
}

/**
 * The first step of `pairByIdentity`: pair each pinned desired item with the live item of its id
 * (into `found`, marking it in `used`); a pin to no live item is a problem. The live items are
 * indexed by id only when some entry is pinned.
 */
function pairPinned<D extends Renamable, L extends { id: string }>(
  ctx: DiffContext,
  what: string,
  desired: readonly D[],
  live: readonly L[],
  nameOf: (x: D | L) => string,
  used: Set<L>,
  found: Map<D, L | undefined>,
): void {
  let byId: Map<string, L> | undefined;
  for (let i = 0; i < desired.length; i += 1) {
    const d = desired[i]!;
    const pin = d.id;
    if (pin === undefined) continue;
    if (!byId) {
      byId = new Map();
      for (const l of live) byId.set(l.id, l);
    }
    const l = byId.get(pin);
    if (!l) {
      problem(ctx, `${what} "${nameOf(d)}" is pinned to id ${pin}, which does not exist`, 'pin-not-found');
      continue;
    }
    used.add(l);
    found.set(d, l);
  }
}

/** Two live objects share the key of a desired one: name them and say how to resolve it. */
export function duplicates(ctx: DiffContext, what: string, name: string, candidates: { id: string }[]): void {
  const ids = candidates.map((c) => c.id);
  ctx.duplicates.push({ organization: ctx.org, kind: what, name, ids });
  warn(
    ctx,
    `${what} "${name}" matches ${ids.length} live objects (ids ${ids.join(', ')}); nothing is planned for it until one is pinned: add "id: ${ids[0]}" (or the id to keep) to its entry, then with policy.prune: true the others are deleted (or delete them by hand)`,
  );
}

/**
 * A live resource of a managed kind that the config does not describe: deleted when pruning,
 * listed as unmanaged otherwise. Returns the key of the delete draft, if there is one.
 */
export function pruneOrList(
  ctx: DiffContext,
  resource: {
    key: string;
    kind: string;
    address: string;
    before: Fields;
    op: OpShape;
    follows?: string[] | undefined;
  },
  prune = ctx.prune,
  reason?: string,
): string | undefined {
  if (!prune) {
    ctx.unmanaged.push({ kind: resource.kind, address: resource.address, ...(reason ? { reason } : {}) });
    return undefined;
  }
  const { key, kind, address, before, op, follows } = resource;
  ctx.drafts.add({ key, action: 'delete', kind, address, before, after: null, op, follows });
  return key;
}
