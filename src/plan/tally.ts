import { isCreationFollowUp } from '../model/index.js';
import { relationKinds } from '../kinds/registry.js';
import type { Change } from '../reconcile/index.js';
import type { Counts } from './controls.js';

/** What the guards count of one organization's changes: deletions and updates, per kind too. */
export function countsOf(changes: readonly Change[]): Counts {
  return tally(changes).counts;
}

/**
 * `countsOf` and the creations, in two passes over the changes, one record per kind in the order
 * kinds first appear (issue 33).
 */
export function tally(changes: readonly Change[]): { counts: Counts; creates: number } {
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
