import type { ApiFlavor, ChangeOp, Fields, Ref, ResourceKind, Unmanaged } from '../model/index.js';
import type { DiffProblem, DraftSet } from './draft.js';

/** What every kind's diff shares within one organization. */
export type DiffContext = {
  org: string;
  drafts: DraftSet;
  unmanaged: Unmanaged[];
  problems: DiffProblem[];
  prune: boolean;
  /** Live resources of managed kinds seen (for the "delete everything" guard). */
  managedLive: { count: number };
  /** Keys of drafts that create or replace a custom field, by field name. */
  customFieldKeys: Map<string, string>;
  /** How to reference each site and team of the organization, by title (for settings and SAML). */
  siteRefs: Map<string, { ref: Ref; createKey?: string }>;
  teamRefs: Map<string, { ref: Ref; createKey?: string }>;
  flavor: ApiFlavor;
  warnings: DiffProblem[];
};

export function warn(ctx: DiffContext, message: string): void {
  ctx.warnings.push({ organization: ctx.org, message });
}

export function problem(ctx: DiffContext, message: string): void {
  ctx.problems.push({ organization: ctx.org, message });
}

/**
 * Pair desired items with live ones: first by pinned id, then by a natural key. Two live items
 * with the same natural key and no pin are ambiguous: reported, and the desired item is skipped.
 */
export function pairByIdentity<D, L extends { id: string }>(
  ctx: DiffContext,
  what: string,
  desired: readonly D[],
  live: readonly L[],
  pinOf: (d: D) => string | undefined,
  nameOf: (x: D | L) => string,
): { pairs: [D, L | undefined][]; leftover: L[] } {
  const used = new Set<L>();
  const pairs: [D, L | undefined][] = [];
  const byId = new Map(live.map((l) => [l.id, l]));
  const byName = new Map<string, L[]>();
  for (const l of live) byName.set(nameOf(l), [...(byName.get(nameOf(l)) ?? []), l]);
  for (const d of desired) {
    const pin = pinOf(d);
    if (pin !== undefined) {
      const l = byId.get(pin);
      if (!l) {
        problem(ctx, `${what} "${nameOf(d)}" is pinned to id ${pin}, which does not exist`);
        continue;
      }
      used.add(l);
      pairs.push([d, l]);
    }
  }
  for (const d of desired) {
    if (pinOf(d) !== undefined) continue;
    const candidates = (byName.get(nameOf(d)) ?? []).filter((l) => !used.has(l));
    if (candidates.length > 1) {
      problem(
        ctx,
        `${what} "${nameOf(d)}" is ambiguous: live ids ${candidates.map((c) => c.id).join(' and ')} share that name; pin one with "id"`,
      );
      for (const c of candidates) used.add(c);
      continue;
    }
    const l = candidates[0];
    if (l) used.add(l);
    pairs.push([d, l]);
  }
  return { pairs, leftover: live.filter((l) => !used.has(l)) };
}

/**
 * A live resource of a managed kind that the config does not describe: deleted when pruning,
 * listed as unmanaged otherwise. Returns the key of the delete draft, if there is one.
 */
export function pruneOrList(
  ctx: DiffContext,
  resource: { key: string; kind: ResourceKind; address: string; before: Fields; op: ChangeOp },
  prune = ctx.prune,
): string | undefined {
  if (!prune) {
    ctx.unmanaged.push({ kind: resource.kind, address: resource.address });
    return undefined;
  }
  ctx.drafts.add({ ...resource, action: 'delete', after: null });
  return resource.key;
}
