import type { Policy } from '../model/desired.js';
import type { ChangeAction, Duplicate, Fields, OpShape, Ref, Unmanaged } from '../model/index.js';
import { DocsyncError, type DiffProblemCode } from '../errors.js';
import { emptyList } from '../model/holey.js';
import type { BrokenLinkFact, PlannedRedirect } from './site-paths.js';

/**
 * A change before the plan numbers it: `key` is unique and stable (it derives from the address),
 * `deps` and `{ change }` references inside `op` name other drafts by key. The diff's tools know a
 * kind by its name and an operation by its `type`; the registry's `ResourceKind` and `ChangeOp`
 * type the drafts of a whole diff (src/reconcile/diff.ts).
 */
export type Draft<K extends string = string, O extends OpShape = OpShape> = {
  key: string;
  action: ChangeAction;
  kind: K;
  address: string;
  before: Fields | null;
  after: Fields | null;
  deps: string[];
  note?: string;
  op: O;
  /**
   * Addresses of the resources this draft is planned for (a redirect that keeps the old URL of a
   * moved section): a partial plan (`--target`) that takes one of them takes this draft too.
   */
  follows?: string[];
};

export type DiffProblem = {
  organization: string;
  message: string;
  code: DiffProblemCode;
  /** The config value the problem is about (an unresolved reference), when known. */
  at?: { file: string; line: number; column: number };
};
export type DiffWarning = { organization: string; message: string };

export type OrgDiff<D extends Draft = Draft> = {
  organization: string;
  drafts: D[];
  unmanaged: Unmanaged[];
  problems: DiffProblem[];
  /** The organization's policy: prune, and what the plan's guards and controls read. */
  policy: Policy;
  /** How many live resources of managed kinds there are (for the "delete everything" guard). */
  managedLiveCount: number;
  /** The same, per kind (ratio thresholds per kind). */
  managedLiveByKind?: Record<string, number>;
  /** Things the plan leaves alone that the user should know about. */
  warnings: DiffWarning[];
  /** Admins the plan leaves and the floor (`policy.minAdmins`), when members are managed. */
  admins?: { before: number; after: number; min: number };
  /** Live objects sharing the key of a desired entry (also named in `warnings`). */
  duplicates?: Duplicate[];
  /** Redirects the plan adds for the published paths it changes (decision 36). */
  addedRedirects?: PlannedRedirect[];
  /** Published paths the plan would break (the brokenLinks guard refuses it). */
  brokenLinks?: BrokenLinkFact[];
};

/** What a kind hands the set: a draft whose `deps` may hold `undefined` (dropped) and repeats. */
export type DraftInput = Omit<Draft, 'deps'> & { deps?: (string | undefined)[] | undefined };

/** No drafts at an address (`DraftSet.at`). */
const NONE: readonly Draft[] = [];

/** Collects drafts in emission order (which is the plan's tie-break order). */
export class DraftSet {
  // Of objects from the start (`emptyList`): each fresh set's first push turned a `[]` of small
  // integers into one of objects under `add`'s optimized push (not a Smi, issue 33).
  readonly drafts: Draft[] = emptyList<Draft>();
  private readonly byKey = new Map<string, Draft>();
  /**
   * The drafts by address (`at`): made at the first ask and kept from then on, so a set nobody
   * asks (most kinds look drafts up by key) costs nothing more per draft.
   */
  private byAddress: Map<string, Draft[]> | undefined = undefined;

  add(draft: DraftInput): Draft {
    const key = draft.key;
    this.refuseTaken(key);
    // One shape for every draft, its fields named one by one: a spread of the many shapes kinds
    // pass is slow until optimized, and a set per draft for its few deps is garbage (issue 33).
    // `note` and `follows` are there when undefined too: the plan's assembly reads every draft,
    // and was deoptimized at each of the four shapes their presence made (wrong map).
    const full: Draft = {
      key,
      action: draft.action,
      kind: draft.kind,
      address: draft.address,
      before: draft.before,
      after: draft.after,
      deps: uniqueDeps(draft.deps),
      note: draft.note,
      op: draft.op,
      follows: draft.follows,
    };
    this.drafts.push(full);
    this.byKey.set(key, full);
    if (this.byAddress !== undefined) this.index(full);
    return full;
  }

  /** Another set's drafts, after this one's, in their order (a kind diffed ahead, src/reconcile/diff.ts). */
  absorb(other: DraftSet): void {
    this.refuseShared(other);
    for (const draft of other.drafts) {
      this.drafts.push(draft);
      this.byKey.set(draft.key, draft);
      if (this.byAddress !== undefined) this.index(draft);
    }
  }

  /**
   * Refuse `other` when a key of its drafts is taken here, naming the first in its order, as adding
   * them one by one would. One lookup per key of the smaller set: a site's 14,000 drafts absorbed
   * after a few hundred are not looked up one by one (issue 33).
   */
  private refuseShared(other: DraftSet): void {
    const [fewer, more] =
      this.byKey.size <= other.byKey.size ? [this.byKey, other.byKey] : [other.byKey, this.byKey];
    for (const key of fewer.keys())
      if (more.has(key)) for (const draft of other.drafts) this.refuseTaken(draft.key);
  }

  private refuseTaken(key: string): void {
    if (this.byKey.has(key)) throw new DocsyncError('duplicate-change-key', `duplicate change key ${key}`);
  }

  get(key: string): Draft | undefined {
    return this.byKey.get(key);
  }

  /**
   * The drafts at `address`, in their order: one lookup where a scan of every draft was (a grant
   * to a team asks for the team's deletion and membership change: teams × grants, decision 34).
   */
  at(address: string): readonly Draft[] {
    if (this.byAddress === undefined) {
      this.byAddress = new Map();
      for (const draft of this.drafts) this.index(draft);
    }
    return this.byAddress.get(address) ?? NONE;
  }

  private index(draft: Draft): void {
    const here = this.byAddress!.get(draft.address);
    if (here) here.push(draft);
    else this.byAddress!.set(draft.address, [draft]);
  }

  depend(key: string, ...deps: (string | undefined)[]): void {
    const draft = this.byKey.get(key);
    if (!draft) return;
    for (const d of deps) if (d && d !== key && !draft.deps.includes(d)) draft.deps.push(d);
  }
}

/** The keys given, without `undefined` and repeats, in their first order. */
function uniqueDeps(deps: readonly (string | undefined)[] | undefined): string[] {
  const out: string[] = [];
  if (deps) for (const d of deps) if (d && !out.includes(d)) out.push(d);
  return out;
}

/** A reference to a live id or to what a draft creates. */
export const liveRef = (id: string): Ref => ({ id });
export const createdRef = (key: string, pick?: string): Ref =>
  pick ? { change: key, key: pick } : { change: key };

/** Structural equality for config values (scalars, arrays, plain objects). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => same((a as Fields)[k], (b as Fields)[k]));
  }
  return false;
}

/**
 * The fields to change: those the config sets (not undefined) whose live value differs.
 * `null` in the config means "clear" and is compared like any value.
 */
export function changedFields(
  desired: Record<string, unknown>,
  live: Record<string, unknown>,
  keys: readonly string[],
): { before: Fields; after: Fields } | null {
  // Built at the first change: most pairs of most plans have none (issue 33: allocation).
  let changes: { before: Fields; after: Fields } | null = null;
  for (const key of keys) {
    const want = desired[key];
    if (want === undefined) continue;
    const have = live[key] ?? null;
    if (!same(want, have)) {
      changes ??= { before: {}, after: {} };
      changes.before[key] = have;
      changes.after[key] = want;
    }
  }
  return changes;
}

/** Fields to set after a creation: every field the config sets that the creation call cannot take. */
export function fieldsToSet(desired: Record<string, unknown>, keys: readonly string[]): Fields | null {
  const after: Fields = {};
  for (const key of keys) {
    const want = desired[key];
    if (want !== undefined && want !== null) after[key] = want;
  }
  return Object.keys(after).length > 0 ? after : null;
}
