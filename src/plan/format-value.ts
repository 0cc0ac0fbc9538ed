import { isCreationFollowUp } from '../model/index.js';
import type { Change } from '../reconcile/index.js';

export const SYMBOL: Record<Change['action'], string> = { create: '+', update: '~', delete: '-', move: '↕' };

export function formatValue(value: unknown): string {
  if (value === undefined) return '(unset)';
  return JSON.stringify(value);
}

/** The field lines of a change: `key: before → after` for updates, `key: value` otherwise. */
export function fieldLines(change: Change): string[] {
  const lines: string[] = [];
  if (change.action === 'move' && !('parent' in (change.after ?? {}))) {
    const a = change.after ?? {};
    if ('before' in a) lines.push(`before ${formatValue(a['before'])}`);
    if ('after' in a) lines.push(`after ${formatValue(a['after'])}`);
    return lines;
  }
  if (change.action === 'delete') return lines;
  const after = change.after ?? {};
  const before = change.before;
  for (const key of Object.keys(after)) {
    if (before && key in before)
      lines.push(`${key}: ${formatValue(before[key])} → ${formatValue(after[key])}`);
    else lines.push(`${key}: ${formatValue(after[key])}`);
  }
  return lines;
}

export function summaryLine(summary: Record<Change['action'], number>): string {
  return `${summary.create} to create, ${summary.update} to update, ${summary.delete} to delete, ${summary.move} to move`;
}

/**
 * Counts for people: a creation and the update that sets what its creation call cannot take
 * (same address in the same plan, or noted as such) are one resource to create. The JSON summary counts changes.
 */
export function resourceSummary(
  changes: readonly Pick<Change, 'action' | 'address' | 'note'>[],
): Record<Change['action'], number> {
  // Indexed loops, no intermediate arrays: a plan's summary counts every change (issue 33).
  const created = createdAddresses(changes);
  const summary: Record<Change['action'], number> = { create: 0, update: 0, delete: 0, move: 0 };
  for (let i = 0; i < changes.length; i += 1) {
    const c = changes[i]!;
    if (isCreationFollowUp(c, created)) continue;
    summary[c.action] += 1;
  }
  return summary;
}

/**
 * The addresses the changes create. A loop of its own: in `resourceSummary`, TurboFan compiled the
 * function on stack in this loop, before the next loop had run, and that code was dropped as it
 * reached it (no feedback for its compare), then compiled again (issue 33: three compile jobs a
 * plan of 17,000 changes).
 */
function createdAddresses(changes: readonly Pick<Change, 'action' | 'address'>[]): Set<string> {
  const created = new Set<string>();
  for (let i = 0; i < changes.length; i += 1)
    if (changes[i]!.action === 'create') created.add(changes[i]!.address);
  return created;
}
