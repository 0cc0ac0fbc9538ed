import type { Draft } from '../diff/draft.js';
import { matchesAddress } from '../model/address-glob.js';
import {
  SET_AFTER_CREATION,
  type Fields,
  type IgnoreRule,
  type Policy,
  type Threshold,
  type Thresholds,
} from '../model/index.js';
import type { OpShape } from '../model/index.js';
import type { IgnoredDifference, LimitCheck, PlanProblem, PlanWarning } from './types.js';

export type { IgnoredDifference, LimitCheck };

/**
 * The operator's controls on a plan (issue 31), applied to an organization's drafts before they
 * are ordered: ignored fields, targets, and the facts the protect and threshold guards judge.
 * Pure: the diff stays the diff of everything, these decide what of it the plan holds.
 */

const omit = (fields: Fields, drop: ReadonlySet<string>): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([k]) => !drop.has(k)));

/**
 * The same operation without the ignored fields: wherever the op carries a field of the change by
 * its name (`patch.icon`, `values.owner`, `title`), it is left out, so it is neither sent nor
 * compared.
 */
function omitFromOp<O extends OpShape>(op: O, drop: ReadonlySet<string>): O {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(op)) {
    if (drop.has(key) && key !== 'type') continue;
    out[key] =
      value !== null && typeof value === 'object' && !Array.isArray(value) && !('$ref' in value)
        ? omit(value as Fields, drop)
        : value;
  }
  return out as O;
}

/** Whether the operation carries `field` by name, at its top level or one level down (`patch`). */
function carries(op: OpShape, field: string): boolean {
  return Object.entries(op).some(
    ([key, value]) =>
      key === field ||
      (value !== null && typeof value === 'object' && !Array.isArray(value) && field in value),
  );
}

function rulesFor(rules: readonly IgnoreRule[], draft: Draft): IgnoreRule[] {
  return rules.filter(
    (r) =>
      (r.kind === undefined || r.kind === draft.kind) &&
      (r.address === undefined || matchesAddress(r.address, draft.address)),
  );
}

/**
 * Ignored fields are not compared or written after creation: an update of a live resource loses
 * them (and is dropped when nothing else is left); a creation, and the update that completes it
 * (`set after creation`), still send them.
 */
export function applyIgnore<D extends Draft>(
  organization: string,
  drafts: readonly D[],
  rules: readonly IgnoreRule[],
): { drafts: D[]; ignored: IgnoredDifference[]; warnings: PlanWarning[] } {
  const warnings: PlanWarning[] = [];
  if (rules.length === 0) return { drafts: [...drafts], ignored: [], warnings };
  const ignored = new Map<string, IgnoredDifference>();
  const kept: D[] = [];
  for (const draft of drafts) {
    const after = draft.after;
    if (draft.action !== 'update' || draft.before === null || draft.note === SET_AFTER_CREATION || !after) {
      kept.push(draft);
      continue;
    }
    const matching = rulesFor(rules, draft);
    let drop = new Set(matching.flatMap((r) => r.fields).filter((f) => f in after));
    // A field the call does not carry by its name cannot be taken out of it: it stays planned
    // (and the plan says so), unless nothing else is left of the update.
    const uncarried = [...drop].filter((f) => !carries(draft.op, f));
    if (uncarried.length > 0 && Object.keys(after).some((k) => !drop.has(k))) {
      drop = new Set([...drop].filter((f) => !uncarried.includes(f)));
      warnings.push({
        organization,
        message: `${draft.address}: ${uncarried.join(', ')} cannot be ignored while other fields of it change (the API call names ${uncarried.length === 1 ? 'it' : 'them'} differently); planned as configured`,
      });
    }
    if (drop.size === 0) {
      kept.push(draft);
      continue;
    }
    const entry = ignored.get(draft.address) ?? {
      organization,
      kind: draft.kind,
      address: draft.address,
      fields: [],
      rules: [],
    };
    for (const f of drop) if (!entry.fields.includes(f)) entry.fields.push(f);
    for (const r of matching)
      if (r.fields.some((f) => drop.has(f)) && !entry.rules.includes(r.rule)) entry.rules.push(r.rule);
    ignored.set(draft.address, entry);
    const rest = omit(after, drop);
    if (Object.keys(rest).length === 0) continue;
    kept.push({ ...draft, before: omit(draft.before, drop), after: rest, op: omitFromOp(draft.op, drop) });
  }
  return { drafts: kept, ignored: [...ignored.values()], warnings };
}

/** The keys of drafts an op names by `{ change: key }` (what it needs created first). */
function opRefs(value: unknown, into: Set<string>): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) opRefs(v, into);
    return;
  }
  const obj = value as Record<string, unknown>;
  if (typeof obj['change'] === 'string') into.add(obj['change']);
  for (const v of Object.values(obj)) opRefs(v, into);
}

export const matchesTarget = (targets: readonly string[], address: string): boolean =>
  targets.some((t) => matchesAddress(t, address));

/**
 * A partial plan (`--target`): the drafts whose address matches a target, and what they depend
 * on (their `deps` and the creations their operations reference), transitively. A deletion is
 * never taken in for a dependency: when a targeted change needs one outside the targets, the
 * organization cannot be planned (a partial plan never prunes outside its targets).
 */
export function selectTargets<D extends Draft>(
  organization: string,
  drafts: readonly D[],
  targets: readonly string[],
): { drafts: D[]; problems: PlanProblem[] } {
  const byKey = new Map(drafts.map((d) => [d.key, d]));
  const chosen = new Set<string>();
  const problems: PlanProblem[] = [];
  const queue = drafts.filter(
    (d) => matchesTarget(targets, d.address) || d.follows?.some((a) => matchesTarget(targets, a)),
  );
  for (const d of queue) chosen.add(d.key);
  for (let i = 0; i < queue.length; i += 1) {
    const d = queue[i]!;
    const needs = new Set(d.deps);
    opRefs(d.op, needs);
    for (const key of needs) {
      const dep = byKey.get(key);
      if (!dep || chosen.has(key)) continue;
      if (dep.action === 'delete') {
        problems.push({
          organization,
          code: 'outside-targets',
          message: `${d.address} needs ${dep.address} deleted first, which is outside the targets: add --target '${dep.address.slice(organization.length + 1)}' or plan without --target`,
        });
        continue;
      }
      chosen.add(key);
      queue.push(dep);
    }
  }
  return { drafts: drafts.filter((d) => chosen.has(d.key)), problems };
}

/** octoDNS's MIN_EXISTING_RECORDS: below this many managed resources, a percentage does not apply. */
export const MIN_POPULATION = 10;

const percentText = (p: number) => `"${p}%"`;

/**
 * The limit of one threshold for a scope of `population` live resources: a count as it is; a
 * percentage of the population (rounded down) from `MIN_POPULATION` up, else `fallback`.
 */
export function limitOf(
  threshold: Threshold,
  population: number,
  fallback: number | null,
): { limit: number; how: string } | null {
  if ('count' in threshold) return { limit: threshold.count, how: `${threshold.count}` };
  if (population >= MIN_POPULATION) {
    const limit = Math.floor((population * threshold.percent) / 100);
    return { limit, how: `${limit}: ${percentText(threshold.percent)} of ${population} managed resources` };
  }
  if (fallback === null) return null;
  return {
    limit: fallback,
    how: `${fallback}: ${percentText(threshold.percent)} applies from ${MIN_POPULATION} managed resources, there are ${population}`,
  };
}

/** Counts of one organization's changes, as the guards count them. */
export type Counts = {
  deletes: number;
  updates: number;
  deletesByKind: Record<string, number>;
  updatesByKind: Record<string, number>;
};

function checksOf(
  guard: LimitCheck['guard'],
  thresholds: Thresholds | undefined,
  counted: { all: number; byKind: Record<string, number> },
  population: { all: number; byKind: Record<string, number> },
  fallback: number | null,
): LimitCheck[] {
  const checks: LimitCheck[] = [];
  const all = thresholds?.all ?? (fallback === null ? undefined : { count: fallback });
  if (all) {
    const l = limitOf(all, population.all, fallback);
    if (l)
      checks.push({
        guard,
        scope: 'all',
        counted: counted.all,
        limit: l.limit,
        rule: `policy.${guard} (${l.how})`,
      });
  }
  for (const [kind, t] of Object.entries(thresholds?.kinds ?? {})) {
    const l = limitOf(t, population.byKind[kind] ?? 0, null);
    if (l)
      checks.push({
        guard,
        scope: kind,
        counted: counted.byKind[kind] ?? 0,
        limit: l.limit,
        rule: `policy.${guard}.${kind} (${l.how})`,
      });
  }
  return checks;
}

/** Every threshold of an organization's policy against what its plan does (checks that hold included). */
export function limitChecks(
  policy: Pick<Policy, 'maxDeletes' | 'deletes' | 'updates'>,
  counts: Counts,
  population: { all: number; byKind: Record<string, number> },
): LimitCheck[] {
  return [
    ...checksOf(
      'maxDeletes',
      policy.deletes,
      { all: counts.deletes, byKind: counts.deletesByKind },
      population,
      policy.maxDeletes,
    ),
    ...checksOf(
      'maxUpdates',
      policy.updates,
      { all: counts.updates, byKind: counts.updatesByKind },
      population,
      null,
    ),
  ];
}

/** Deletions of protected resources: each with the rule that protects it. */
export function protectedDeletes(
  policy: Pick<Policy, 'protect'>,
  deletes: readonly { address: string; kind: string }[],
): { address: string; kind: string; rule: string }[] {
  const rules = policy.protect ?? [];
  if (rules.length === 0) return [];
  return deletes.flatMap((d) => {
    const rule = rules.find((r) => matchesAddress(r.address, d.address));
    return rule
      ? [{ address: d.address, kind: d.kind, rule: `${rule.rule}: ${JSON.stringify(rule.address)}` }]
      : [];
  });
}
