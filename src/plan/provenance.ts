import type { Change } from '../reconcile/index.js';
import { describeAttribution } from './attribution.js';
import type { InheritedEntry, Plan } from './types.js';

/**
 * Where what a plan shows comes from, beside its changes: who last changed a drifted resource
 * (drift reports, from the audit log) and which entries came from base files. Plain lines: each
 * renderer escapes them its own way.
 */

/** The note under a change of a drift report: who changed it, when. */
export function changeProvenance(plan: Plan, change: Change): string[] {
  const a = plan.attributions;
  if (!a || !(change.id in a.byChange)) return [];
  return [describeAttribution(a.byChange[change.id] ?? null, new Date(a.readAt))];
}

/** The report-wide line when nothing could be attributed (no audit log, a failed read). */
export function provenanceWarning(plan: Plan): string | undefined {
  return plan.attributions?.unavailable;
}

/** One line per entry taken from a base file: `teams "Platform" from base/teams.yaml`. */
export function inheritedLines(plan: Plan): string[] {
  return (plan.inherited ?? []).map(inheritedLine);
}

function inheritedLine(e: InheritedEntry): string {
  const what = `${e.organization}: ${e.key} "${e.identity}"`;
  return e.overriddenBy ? `${what} of ${e.base} is replaced by ${e.overriddenBy}` : `${what} from ${e.base}`;
}
