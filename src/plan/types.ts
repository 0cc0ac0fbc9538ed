import type { Attributions } from './attribution.js';
import type { AccessChange } from '../access/effective.js';
import type { ChangeAction, Duplicate, Unmanaged } from '../model/index.js';
import type { Change } from '../reconcile/index.js';
import type { ErrorCode, PlanProblemCode } from '../errors.js';
import type { BrokenLinkFact, PlannedRedirect } from '../diff/site-paths.js';

export type PlanSummary = Record<ChangeAction, number>;

/** The guards a plan is judged by (decision 0005). */
export type Guard = 'maxDeletes' | 'maxUpdates' | 'protect' | 'empty-config' | 'minAdmins' | 'brokenLinks';

/**
 * A guard's verdict against a plan, carried by the plan itself (`refusals` in its JSON): what
 * `apply` will refuse, and what overrides it (`--allow-deletes N`; null: nothing does).
 */
export type SafetyRefusal = {
  organization: string;
  guard: Guard;
  code: Extract<
    ErrorCode,
    | 'too-many-deletes'
    | 'deletes-everything'
    | 'too-few-admins'
    | 'too-many-updates'
    | 'protected-resource'
    | 'broken-links'
  >;
  message: string;
  override: string | null;
  /** The `--allow-deletes` that lifts this refusal; absent when no flag does. */
  allowDeletes?: number;
  /** The `--allow-updates` that lifts this refusal. */
  allowUpdates?: number;
};

/** A problem that stops an organization's plan; `code` is stable (src/errors.ts). */
export type PlanProblem = {
  organization: string;
  message: string;
  code: PlanProblemCode;
  /** The config value the problem is about (an unresolved reference), when known. */
  at?: { file: string; line: number; column: number };
};

/** Something the plan leaves alone that the reviewer should know about. */
export type PlanWarning = { organization: string; message: string };

/** Per-organization facts the safety guard needs. */
export type PlanGuardFacts = {
  organization: string;
  deletes: number;
  creates: number;
  maxDeletes: number;
  managedLive: number;
  /** Admins after the plan and the floor (`policy.minAdmins`), when members are managed. */
  admins?: { before: number; after: number; min: number };
  /**
   * Every threshold (`policy.maxDeletes`, `policy.maxUpdates`, per kind) against what the plan
   * does; when present, it judges deletions instead of `maxDeletes`.
   */
  limits?: LimitCheck[];
  /** Deletions (or replacements) of protected resources, and the rule protecting each. */
  protected?: { address: string; kind: string; rule: string }[];
  /** Published paths the plan takes away with no redirect (decision 36): `policy.brokenLinks` refuses them. */
  brokenLinks?: BrokenLinkFact[];
};

/** A redirect a plan adds for a published path it changes (decision 36), per organization. */
export type PlanRedirect = PlannedRedirect & { organization: string };

/** The reviewed, serializable result of planning. Only `apply` turns it into API calls. */
export type Plan = {
  formatVersion: 1;
  organizations: string[];
  changes: Change[];
  summary: PlanSummary;
  unmanaged: Unmanaged[];
  /** Organizations that could not be planned, and why (their changes are left out). */
  errors: PlanProblem[];
  /** Things left alone that the reviewer should know about (they do not stop the plan). */
  warnings: PlanWarning[];
  /** Live objects that share the key of one desired entry; left alone until one is pinned by id. */
  duplicates?: Duplicate[];
  guards: PlanGuardFacts[];
  /** What `apply` will refuse, before any `--allow-deletes`: the guards' verdict on `guards`. */
  refusals: SafetyRefusal[];
  /** Live differences the plan leaves alone because of ignore rules (one per resource). */
  ignored?: IgnoredDifference[];
  /** A `--target` plan: only the targeted resources and what they depend on. */
  partial?: { targets: string[] };
  /** sha256 over the changes and the live facts they rely on (ids, before values). */
  checksum: string;
  /** Entries that came from base files (`extends`, decision 28), and the ones a file replaced. */
  inherited?: InheritedEntry[];
  /** Redirects the plan adds so that the published paths it changes keep working (decision 36). */
  redirects?: PlanRedirect[];
  /** Drift reports: who last changed each drifted resource, from the audit log (decision 30). */
  attributions?: Attributions;
  /** Who can read, edit or administer what, now and after the plan: the difference (decision 35). */
  access?: PlanAccessChange[];
};

/** One difference of effective access, of one organization (the plan JSON's `access`). */
export type PlanAccessChange = AccessChange & { organization: string };

/** An entry an organization took from a base file, or one of a base that a file replaced. */
export type InheritedEntry = {
  organization: string;
  /** The config key and the entry's identity (`teams`, `Platform`). */
  key: string;
  identity: string;
  /** The base file, as issues show it. */
  base: string;
  /** The file whose entry replaced the base's, when one did. */
  overriddenBy?: string;
};

/** A live difference a plan left alone (`ignore`), one per resource. */
export type IgnoredDifference = {
  organization: string;
  kind: string;
  address: string;
  fields: string[];
  /** The rules that ignored them (`policy.ignore[0]`, `sites[0].sections[1].ignore`). */
  rules: string[];
};

/** One threshold checked against a plan (`policy.maxDeletes`/`maxUpdates`). */
export type LimitCheck = {
  guard: 'maxDeletes' | 'maxUpdates';
  /** `all` for the organization, else a kind. */
  scope: string;
  counted: number;
  limit: number;
  /** How the limit came about, for the message: `policy.maxDeletes.team (2)`. */
  rule: string;
};
