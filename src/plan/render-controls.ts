import type { IgnoredDifference } from './controls.js';
import type { Plan } from './types.js';

/** The words every form of a partial plan uses (text, markdown; JSON says `partial: true`). */
export function partialLine(plan: Pick<Plan, 'partial'>): string | undefined {
  if (!plan.partial) return undefined;
  const targets = plan.partial.targets.map((t) => `--target ${t}`).join(', ');
  return `Partial plan: only ${targets} and what they depend on; nothing else is planned, nor pruned.`;
}

export const REDIRECTS_HEADING = 'Redirects added so that published URLs keep working:';

/** One planned redirect: `site "Docs": /guides → /tutorials (section "guides" moves to /tutorials)`. */
export function redirectLine(r: NonNullable<Plan['redirects']>[number]): string {
  return `site "${r.site}": ${r.source} → ${r.destination} (${r.reason})`;
}

export const IGNORED_HEADING = 'Ignored (live differs; left alone by ignore rules):';

/** One line per resource: `site-section org/sites/Docs/sections/guides: icon (policy.ignore[0])`. */
export function ignoredLine(i: IgnoredDifference): string {
  return `${i.kind} ${i.address}: ${i.fields.join(', ')} (${i.rules.join(', ')})`;
}
