import { isCreationFollowUp, type Ref } from '../model/index.js';
import { relationKinds } from '../kinds/registry.js';
import type { OrgDiff } from '../reconcile/diff.js';
import type { Change, ChangeOp } from '../reconcile/index.js';
import { createHash } from 'node:crypto';
import { changesByOrganization } from './by-organization.js';
import { resourceSummary } from './format-value.js';
import { guardVerdict } from './safety.js';
import {
  applyIgnore,
  limitChecks,
  matchesTarget,
  protectedDeletes,
  selectTargets,
  type Counts,
  type IgnoredDifference,
} from './controls.js';
import type { Plan, PlanGuardFacts, PlanProblem, PlanSummary } from './types.js';

/** A binary min-heap of numbers (emission indices): the stable tie-break of the topological sort. */
class MinHeap {
  private readonly items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(value: number): void {
    const a = this.items;
    a.push(value);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = a[parent]!;
      if (up <= value) break;
      // Swaps by hand: a destructuring swap builds an array and iterates it until optimized.
      a[i] = up;
      a[parent] = value;
      i = parent;
    }
  }
  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        const down = a[m]!;
        a[m] = a[i]!;
        a[i] = down;
        i = m;
      }
    }
    return top;
  }
}

/** A change's id by its draft's key (undefined: not in the plan). */
type IdOf = (key: string) => string | undefined;

function renameRef(ref: Ref, ids: IdOf): Ref {
  if ('id' in ref) return ref;
  return { ...ref, change: ids(ref.change) ?? ref.change };
}

/** Whether an object is a reference to a draft: `{ change }` or `{ change, key }`, nothing else. */
function isChangeRef(obj: Record<string, unknown>): boolean {
  if (typeof obj['change'] !== 'string') return false;
  for (const k in obj) if (k !== 'change' && k !== 'key') return false;
  return true;
}

/**
 * Rewrite every `{ change: key }` reference of a value to the final change ids. Objects without a
 * reference inside are returned as they are (no copy), which keeps large plans cheap. One function
 * for every op, not a closure per op, and no call for a field that holds no object (issue 33).
 */
function renameRefs(value: unknown, ids: IdOf): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (item === null || typeof item !== 'object') continue;
      const next = renameRefs(item, ids);
      if (next !== item) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  const obj = value as Record<string, unknown>;
  if (isChangeRef(obj)) return renameRef(obj as Ref, ids);
  let copy: Record<string, unknown> | undefined;
  for (const key in obj) {
    const field = obj[key];
    if (field === null || typeof field !== 'object') continue;
    const next = renameRefs(field, ids);
    if (next !== field) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? obj;
}

const renameOp = (op: ChangeOp, ids: IdOf): ChangeOp => renameRefs(op, ids) as ChangeOp;

/**
 * Order the changes of every organization by their dependencies (Kahn's algorithm; ties broken
 * by the order the diff emitted them, so the same inputs always give the same plan), number
 * them c1..cN, and compute the summary and checksum.
 */
export type BuildOptions = {
  /** `--target` patterns: a partial plan of the matching resources and what they depend on. */
  targets?: readonly string[];
};

export function buildPlan(input: OrgDiff[], options: BuildOptions = {}): Plan {
  const errors: PlanProblem[] = [];
  const { diffs, ignored } = applyControls(input, options.targets);
  const drafts = diffs.flatMap((d) => {
    if (d.problems.length === 0) return d.drafts;
    errors.push(...d.problems);
    return [];
  });
  // Plain loops and arrays indexed by emission order (issue 33: a plan of 17,000 changes).
  // Each loop in a function of its own: run once, each was compiled on the spot (OSR), and each
  // such compile was of the whole of `buildPlan` (four compiles, issue 33).
  const count = drafts.length;
  const index = indexByKey(drafts);
  const { order, indegree } = dependsBackward(drafts, index)
    ? emissionOrder(count)
    : dependencyOrder(drafts, index);
  if (order.length !== count) {
    const stuck = drafts.filter((_, i) => indegree[i]! > 0).map((d) => d.address);
    errors.push({
      organization: '*',
      code: 'dependency-cycle',
      message: `dependency cycle between changes: ${stuck.slice(0, 5).join(', ')}`,
    });
    return finish(diffs, [], errors, ignored, options.targets);
  }
  // A draft's place in the plan (by emission index), and its id.
  const position = positionsOf(order);
  const idOf = (key: string): string | undefined => {
    const i = index.get(key);
    return i === undefined ? undefined : `c${position[i]! + 1}`;
  };
  return finish(diffs, changesOf(drafts, order, index, position, idOf), errors, ignored, options.targets);
}

type Draft = OrgDiff['drafts'][number];

/** The plan's changes, in `order`. */
function changesOf(
  drafts: readonly Draft[],
  order: readonly number[],
  index: Map<string, number>,
  position: number[],
  idOf: (key: string) => string | undefined,
): Change[] {
  const count = order.length;
  const changes: Change[] = new Array<Change>(count);
  for (let n = 0; n < count; n += 1) {
    const d = drafts[order[n]!]!;
    const change: Change = {
      id: `c${n + 1}`,
      action: d.action,
      kind: d.kind,
      address: d.address,
      before: d.before,
      after: d.after,
      dependsOn: dependsOn(d.deps, index, position),
      op: renameOp(d.op, idOf),
    };
    // The note goes before the op, where the plan's JSON has always shown it.
    changes[n] = d.note ? withNote(change, d.note) : change;
  }
  return changes;
}

/** Each draft's index by its key. */
function indexByKey(drafts: readonly Draft[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < drafts.length; i += 1) index.set(drafts[i]!.key, i);
  return index;
}

/**
 * Whether every draft waits only for drafts emitted before it: then the order is the emission order
 * (the smallest index left is always ready), and no heap is needed.
 */
function dependsBackward(drafts: readonly Draft[], index: ReadonlyMap<string, number>): boolean {
  for (let i = 0; i < drafts.length; i += 1)
    for (const dep of drafts[i]!.deps) {
      const j = index.get(dep);
      if (j !== undefined && j >= i) return false;
    }
  return true;
}

/** A draft's place in the plan, by its emission index. */
function positionsOf(order: readonly number[]): number[] {
  const position = new Array<number>(order.length);
  for (let n = 0; n < order.length; n += 1) position[order[n]!] = n;
  return position;
}

/** Every draft in the order it was emitted (none waits for a later one). */
function emissionOrder(count: number): { order: number[]; indegree: number[] } {
  const order = new Array<number>(count);
  for (let i = 0; i < count; i += 1) order[i] = i;
  return { order, indegree: [] };
}

/**
 * Kahn's algorithm, ties broken by emission order (a min-heap of indices). `indegree` keeps what
 * is left for the drafts in a cycle (`order` is then shorter than the drafts).
 */
function dependencyOrder(
  drafts: readonly OrgDiff['drafts'][number][],
  index: Map<string, number>,
): { order: number[]; indegree: number[] } {
  const count = drafts.length;
  const indegree = new Array<number>(count).fill(0);
  const dependents = new Array<number[] | undefined>(count);
  for (let i = 0; i < count; i += 1)
    for (const dep of drafts[i]!.deps) {
      const j = index.get(dep);
      if (j === undefined) continue;
      indegree[i]! += 1;
      const list = dependents[j];
      if (list) list.push(i);
      else dependents[j] = [i];
    }
  const heap = new MinHeap();
  for (let i = 0; i < count; i += 1) if (indegree[i] === 0) heap.push(i);
  const order: number[] = [];
  while (heap.size > 0) {
    const i = heap.pop();
    order.push(i);
    for (const j of dependents[i] ?? []) {
      indegree[j]! -= 1;
      if (indegree[j] === 0) heap.push(j);
    }
  }
  return { order, indegree };
}

/** The ids of the changes a draft waits for, in plan order (a dependency outside the plan is dropped). */
function dependsOn(deps: readonly string[], index: Map<string, number>, position: number[]): string[] {
  if (deps.length === 0) return [];
  const at: number[] = [];
  for (const k of deps) {
    const i = index.get(k);
    if (i !== undefined) at.push(position[i]!);
  }
  if (at.length > 1) at.sort((a, b) => a - b);
  const out = new Array<string>(at.length);
  for (let i = 0; i < at.length; i += 1) out[i] = `c${at[i]! + 1}`;
  return out;
}

/** A change with its note, in the key order of the plan's JSON (the note before the op). */
function withNote(c: Change, note: string): Change {
  return {
    id: c.id,
    action: c.action,
    kind: c.kind,
    address: c.address,
    before: c.before,
    after: c.after,
    dependsOn: c.dependsOn,
    note,
    op: c.op,
  };
}

/** An organization's diff under the controls (a partial plan may add a problem of its own). */
type ControlledDiff = Omit<OrgDiff, 'problems'> & { problems: PlanProblem[] };

/**
 * Each organization's drafts under its ignore rules, then (a partial plan) only the targeted ones
 * and what they depend on; its unmanaged resources likewise only those targeted.
 */
function applyControls(
  diffs: OrgDiff[],
  targets: readonly string[] | undefined,
): { diffs: ControlledDiff[]; ignored: IgnoredDifference[] } {
  const ignored: IgnoredDifference[] = [];
  const matched = new Set<string>();
  const out = diffs.map((d): ControlledDiff => {
    if (d.problems.length > 0) return d;
    const kept = applyIgnore(d.organization, d.drafts, d.policy.ignore ?? []);
    const warnings = [...(d.warnings ?? []), ...kept.warnings];
    if (!targets) {
      ignored.push(...kept.ignored);
      return { ...d, drafts: kept.drafts, warnings };
    }
    const addresses = [...kept.drafts, ...kept.ignored, ...d.unmanaged].map((x) => x.address);
    for (const t of targets) if (addresses.some((a) => matchesTarget([t], a))) matched.add(t);
    const chosen = selectTargets(d.organization, kept.drafts, targets);
    ignored.push(...kept.ignored.filter((i) => matchesTarget(targets, i.address)));
    return {
      ...d,
      warnings,
      drafts: chosen.drafts,
      problems: chosen.problems,
      unmanaged: d.unmanaged.filter((u) => matchesTarget(targets, u.address)),
    };
  });
  const first = out.find((d) => d.problems.length === 0);
  for (const t of targets ?? [])
    if (first && !matched.has(t))
      first.warnings = [
        ...(first.warnings ?? []),
        {
          organization: first.organization,
          message: `--target ${t} matches no planned change: nothing to do there, or not an address (docsync plan without --target lists them)`,
        },
      ];
  return { diffs: out, ignored };
}

/** What the guards count of one organization's changes: deletions and updates, per kind too. */
export function countsOf(changes: readonly Change[]): Counts {
  return tally(changes).counts;
}

/**
 * `countsOf` and the creations, in two passes over the changes, one record per kind in the order
 * kinds first appear (issue 33).
 */
function tally(changes: readonly Change[]): { counts: Counts; creates: number } {
  const counts: Counts = { deletes: 0, updates: 0, deletesByKind: {}, updatesByKind: {} };
  type KindCount = { deletes: number; updates: number; created: Set<string> | undefined };
  const byKind = new Map<string, KindCount>();
  let creates = 0;
  for (let i = 0; i < changes.length; i += 1) {
    const c = changes[i]!;
    let k = byKind.get(c.kind);
    if (!k) byKind.set(c.kind, (k = { deletes: 0, updates: 0, created: undefined }));
    if (c.action === 'delete') k.deletes += 1;
    else if (c.action === 'create') {
      creates += 1;
      (k.created ??= new Set()).add(c.address);
    }
  }
  // Updates counted as the summary counts them (a creation's follow-up is not one).
  for (let i = 0; i < changes.length; i += 1) {
    const c = changes[i]!;
    if (c.action !== 'update') continue;
    const k = byKind.get(c.kind)!;
    if (!isCreationFollowUp(c, k.created)) k.updates += 1;
  }
  for (const [kind, k] of byKind) {
    const deletes = relationKinds.has(kind) ? 0 : k.deletes;
    if (deletes > 0) counts.deletesByKind[kind] = deletes;
    if (k.updates > 0) counts.updatesByKind[kind] = k.updates;
    counts.deletes += deletes;
    counts.updates += k.updates;
  }
  return { counts, creates };
}

/**
 * The plan's checksum: sha256 over one JSON line per change (its id, action, kind, address,
 * before, after, dependsOn and op, in that order). The diff builds every object in a fixed key
 * order, so JSON.stringify is canonical here. The lines are fed in chunks of about 64 kB: one call
 * into the hash per chunk, not two per change, and never one string of the whole plan.
 */
export function checksumOf(changes: readonly Change[]): string {
  const hash = createHash('sha256');
  let chunk = '';
  for (let i = 0; i < changes.length; i += 1) {
    const c = changes[i]!;
    chunk += `${JSON.stringify([c.id, c.action, c.kind, c.address, c.before, c.after, c.dependsOn, c.op])}\n`;
    if (chunk.length >= 65536) {
      hash.update(chunk);
      chunk = '';
    }
  }
  return hash.update(chunk).digest('hex');
}

/** What the guards judge of one organization: its counts, thresholds, protected deletions, links. */
function guardFacts(d: ControlledDiff, mine: readonly Change[]): PlanGuardFacts {
  const { counts, creates } = tally(mine);
  const population = { all: d.managedLiveCount, byKind: d.managedLiveByKind ?? {} };
  const ratio = d.policy.deletes !== undefined || d.policy.updates !== undefined;
  const prot =
    (d.policy.protect?.length ?? 0) === 0
      ? []
      : protectedDeletes(
          d.policy,
          mine.filter((c) => c.action === 'delete' && !relationKinds.has(c.kind)),
        );
  return {
    organization: d.organization,
    deletes: counts.deletes,
    creates,
    maxDeletes: d.policy.maxDeletes,
    managedLive: d.managedLiveCount,
    ...(d.admins ? { admins: d.admins } : {}),
    ...(ratio ? { limits: limitChecks(d.policy, counts, population) } : {}),
    ...(prot.length > 0 ? { protected: prot } : {}),
    ...(d.brokenLinks && d.brokenLinks.length > 0 ? { brokenLinks: d.brokenLinks } : {}),
  };
}

function finish(
  diffs: ControlledDiff[],
  changes: Change[],
  errors: PlanProblem[],
  ignored: IgnoredDifference[],
  targets: readonly string[] | undefined,
): Plan {
  // Resources, counted as every other place counts them (text, markdown, apply, daemon, history).
  const summary: PlanSummary = resourceSummary(changes);
  const checksum = checksumOf(changes);
  const mine = changesByOrganization(
    changes,
    diffs.map((d) => d.organization),
  );
  const guards = diffs.map((d) => guardFacts(d, mine(d.organization)));
  const redirects = diffs.flatMap((d) =>
    d.problems.length > 0
      ? []
      : (d.addedRedirects ?? []).map((r) => ({ organization: d.organization, ...r })),
  );
  return {
    formatVersion: 1,
    organizations: diffs.map((d) => d.organization),
    changes,
    summary,
    unmanaged: diffs.flatMap((d) => d.unmanaged),
    errors,
    warnings: diffs.flatMap((d) => d.warnings ?? []),
    duplicates: diffs.flatMap((d) => d.duplicates ?? []),
    guards,
    refusals: guardVerdict(guards),
    ...(ignored.length > 0 ? { ignored } : {}),
    ...(targets ? { partial: { targets: [...targets] } } : {}),
    ...(redirects.length > 0 ? { redirects } : {}),
    checksum,
  };
}
