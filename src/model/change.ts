import type { CertificateRef } from './desired.js';

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
 * What every operation of a plan is: pure data named by its `type`. Each kind declares its own
 * (src/kinds/); the registry's union of them is `ChangeOp` (src/reconcile/change.ts).
 */
export type OpShape = { type: string; [field: string]: unknown };

/** The note of an update that sets what a creation call cannot take (decision 0002). */
export const SET_AFTER_CREATION = 'set after creation';

/**
 * Whether an update is its creation's follow-up (noted as such, or at an address `created` holds,
 * the addresses this plan creates): with its creation, one resource to create. The summary people
 * read and the plan's guards (`policy.maxUpdates`...) count by this one rule.
 */
export function isCreationFollowUp(
  change: { action: string; address: string; note?: string | undefined },
  created: ReadonlySet<string> | undefined,
): boolean {
  return (
    change.action === 'update' &&
    (change.note === SET_AFTER_CREATION || (created !== undefined && created.has(change.address)))
  );
}

/** Two or more live objects that share the key of one desired entry: left alone until one is pinned. */
export type Duplicate = { organization: string; kind: string; name: string; ids: string[] };

/** A live resource of a managed kind that the config does not describe. */
export type Unmanaged = {
  /** The kind's name in the plan (src/kinds/registry.ts). */
  kind: string;
  address: string;
  /** Why it is left alone, when not because `policy.prune` is false. */
  reason?: string;
};

export function isRefValue(value: unknown): value is RefValue {
  return typeof value === 'object' && value !== null && '$ref' in value;
}
