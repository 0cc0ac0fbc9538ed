import type { DesiredLists, DesiredObjects, DesiredTree } from '../kinds/registry.js';

/**
 * Desired state: what the YAML says, normalized. A field that is `undefined` is not managed
 * (the config omitted it); `null` means "clear it" where the API allows clearing.
 * A list that is `undefined` means the whole kind is unmanaged in that scope.
 */
export type DesiredState = {
  organizations: DesiredOrganization[];
  /**
   * `--target` patterns: the plan holds only the changes of matching resources and what they
   * depend on (a partial plan). Kept here so that a saved plan applies with the same targets.
   */
  targets?: string[];
};

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
};

export const DEFAULT_MIN_ADMINS = 1;

/** The lists of list kinds (src/kinds/registry.ts) come from their modules. */
export type DesiredOrganization = DesiredLists &
  DesiredObjects &
  DesiredTree & {
    id: string;
    policy: Policy;
  };

/** `id` pins a live resource; `previously` lists earlier names (a rename without an id lookup). */
export type Renamable = { id?: string; previously?: string[] };

/** Where a certificate comes from; its content is never part of the desired state, only its hash. */
export type CertificateRef =
  { source: 'file'; path: string; sha256: string } | { source: 'env'; name: string; sha256: string };
