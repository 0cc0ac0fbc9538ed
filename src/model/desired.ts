/** A threshold: a count, or a percentage of the managed live resources of its scope. */
export type Threshold = { count: number } | { percent: number };

/** A threshold for the organization (`all`) and per kind (`kinds`). */
export type Thresholds = { all?: Threshold; kinds?: Record<string, Threshold> };

/** Fields docsync leaves alone after creation, for the resources that `address` (a glob) or `kind` names. */
export type IgnoreRule = {
  fields: string[];
  kind?: string;
  address?: string;
  /** Where the rule was written (`policy.ignore[0]`, `sites[0].sections[1].ignore`). */
  rule: string;
};

/** Resources a plan may never delete or replace: an address glob, and where it was written. */
export type ProtectRule = { address: string; rule: string };

/** An organization's policy: what a plan may delete (config key `policy`). */
export type Policy = {
  prune: boolean;
  maxDeletes: number;
  /** Remove organization members the config omits (never through `prune`); default false. */
  pruneMembers?: boolean;
  /** A plan that leaves fewer admins is refused; default 1 (`DEFAULT_MIN_ADMINS`). */
  minAdmins?: number;
  /**
   * Ratio and per-kind thresholds (`policy.maxDeletes: "5%"`, `{ default, <kind> }`); `maxDeletes`
   * stays the count that applies when no percentage does (below the minimum population).
   */
  deletes?: Thresholds;
  /** `policy.maxUpdates`: none by default. */
  updates?: Thresholds;
  protect?: ProtectRule[];
  ignore?: IgnoreRule[];
  /** What a plan that takes published paths away does (decision 36); absent: `redirect`. */
  brokenLinks?: 'refuse' | 'redirect' | 'allow';
  /** When the daemon may apply (src/policy/sync-windows.ts); absent: any time. */
  syncWindows?: SyncWindowPolicy[];
};

/** `policy.syncWindows[]`, normalized: the time zone defaults to UTC, the duration is also in ms. */
export type SyncWindowPolicy = {
  kind: 'allow' | 'deny';
  schedule: string;
  duration: string;
  durationMs: number;
  manualSync: boolean;
  timeZone: string;
};

export const DEFAULT_MIN_ADMINS = 1;

/** `id` pins a live resource; `previously` lists earlier names (a rename without an id lookup). */
export type Renamable = { id?: string; previously?: string[] };

/** Where a certificate comes from; its content is never part of the desired state, only its hash. */
export type CertificateRef =
  { source: 'file'; path: string; sha256: string } | { source: 'env'; name: string; sha256: string };
