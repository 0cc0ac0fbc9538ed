import type { KindOp } from '../kinds/registry.js';
import type { CertificateRef } from './desired.js';
import type { ChangeAction, ResourceKind } from './kinds.js';

/**
 * A reference to a live object: either an id known at plan time, or the object that an earlier
 * change of the same plan creates (`change` is that change's id, `key` picks one of the ids it
 * yields: `id` by default, `siteSpace:<spaceId>` for the first site space of a created section).
 */
export type Ref = { id: string } | { change: string; key?: string };

/** A value inside an update body that names another object. */
export type RefValue = { $ref: Ref };

/** A certificate inside a body: read from its file or variable when the change runs, checked against its hash. */
export type CertificateValue = { $certificate: CertificateRef };

export type Position = { before?: Ref; after?: Ref };

export type Fields = Record<string, unknown>;

/** Body of an update: plain values, or references resolved when the change runs. */
export type Patch = Record<string, unknown>;

/**
 * The single API call a change makes. Pure data: the plan holds it, only `apply` executes it.
 * Each kind declares its own operations (src/kinds/).
 */
export type ChangeOp = KindOp;

/** The note of an update that sets what a creation call cannot take (decision 0002). */
export const SET_AFTER_CREATION = 'set after creation';

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

/** Two or more live objects that share the key of one desired entry: left alone until one is pinned. */
export type Duplicate = { organization: string; kind: string; name: string; ids: string[] };

/** A live resource of a managed kind that the config does not describe. */
export type Unmanaged = {
  kind: ResourceKind;
  address: string;
  /** Why it is left alone, when not because `policy.prune` is false. */
  reason?: string;
};

export function isRefValue(value: unknown): value is RefValue {
  return typeof value === 'object' && value !== null && '$ref' in value;
}
