import { isCreationFollowUp } from '../model/index.js';
import { relationKinds } from '../kinds/registry.js';
import type { Change } from '../reconcile/index.js';
import type { Counts } from './controls.js';

/** What the guards count of one organization's changes: deletions and updates, per kind too. */
export function countsOf(changes: readonly Change[]): Counts {
  return tally(changes).counts;
}

/** One kind's deletions, updates and created addresses. */
type KindCount = { deletes: number; updates: number; created: Set<string> | undefined };

/**
 * `countsOf` and the creations, in two passes over the changes, one record per kind in the order
 * kinds first appear (issue 33). Each pass is a function of its own: in one function, TurboFan
 * compiled it on stack in the first pass, before the second had run, and dropped that code as the
 * second began (no feedback there), then compiled it again.
 */
export function tally(changes: readonly Change[]): { counts: Counts; creates: number } {
  const counts: Counts = { deletes: 0, updates: 0, deletesByKind: {}, updatesByKind: {} };
  const byKind = new Map<string, KindCount>();
  const creates = countDeletesAndCreates(changes, byKind);
  countUpdates(changes, byKind);
  for (const [kind, k] of byKind) {
    const deletes = relationKinds.has(kind) ? 0 : k.deletes;
    if (deletes > 0) counts.deletesByKind[kind] = deletes;
    if (k.updates > 0) counts.updatesByKind[kind] = k.updates;
    counts.deletes += deletes;
    counts.updates += k.updates;
  }
  return { counts, creates };
}

/** Each kind's record, in the order kinds first appear, with its deletions and created addresses: the creations. */
function countDeletesAndCreates(changes: readonly Change[], byKind: Map<string, KindCount>): number {
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
  return creates;
}

/** Updates counted as the summary counts them (a creation's follow-up is not one). */
function countUpdates(changes: readonly Change[], byKind: ReadonlyMap<string, KindCount>): void {
  for (let i = 0; i < changes.length; i += 1) {
    const c = changes[i]!;
    if (c.action !== 'update') continue;
    const k = byKind.get(c.kind)!;
    if (!isCreationFollowUp(c, k.created)) k.updates += 1;
  }
}
