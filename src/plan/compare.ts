import type { Change } from '../reconcile/index.js';
import { canonicalJson } from './checksum.js';
import type { Plan } from './types.js';

/** A change's meaning, independent of its id: what it does to which resource. */
const signature = (c: Change) =>
  canonicalJson({ action: c.action, kind: c.kind, address: c.address, after: c.after });

/**
 * Which changes of a pull request's plan it introduces, and which were already pending against
 * the base branch's config (drift that exists without the pull request).
 */
export function markAgainstBase(plan: Plan, base: Plan): (c: Change) => string {
  const pending = new Set(base.changes.map(signature));
  return (c) =>
    pending.has(signature(c)) ? 'drift: also pending on the base branch' : 'introduced by this pull request';
}
