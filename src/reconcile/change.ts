import type { ChangeAction, Fields } from '../model/index.js';
import type { KindOp, ResourceKind } from '../kinds/registry.js';

export type { ResourceKind };

/**
 * The single API call a change makes. Pure data: the plan holds it, only `apply` executes it.
 * Each kind declares its own operations (src/kinds/); this is their union.
 */
export type ChangeOp = KindOp;

/** One reviewed step of a plan: exactly one API call. */
export type Change = {
  id: string;
  action: ChangeAction;
  kind: ResourceKind;
  address: string;
  /** Changed fields only, as they are now (null for a creation). */
  before: Fields | null;
  /** Changed fields only, as they will be (null for a deletion). */
  after: Fields | null;
  dependsOn: string[];
  /** Why a change exists when that is not obvious (a follow-up after creation, a temporary path). */
  note?: string;
  op: ChangeOp;
};
