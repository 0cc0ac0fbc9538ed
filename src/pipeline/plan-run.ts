import type { ApiClient } from '../api/client.js';
import { diff } from '../reconcile/diff.js';
import { readLive, type ReadProgress } from '../live/read.js';
import type { DesiredState, LiveState } from '../reconcile/index.js';
import { buildPlan } from '../plan/build.js';
import type { Plan } from '../plan/types.js';
import { resolveReferences } from './resolve.js';
import { inheritedOf } from '../config/origins.js';
import { withAccess } from './plan-access.js';

export type PlanRun = { desired: DesiredState; live: LiveState; plan: Plan };

/** Read live state for what the config manages, diff and order: the plan, and what it came from. */
export async function makePlan(
  api: ApiClient,
  desired: DesiredState,
  onProgress?: (p: ReadProgress) => void,
): Promise<PlanRun> {
  const live = await readLive(api, desired, onProgress);
  const unresolved = await resolveReferences(api, desired, live);
  const diffs = diff(desired, live, { capabilities: api.capabilities }).map((d) => {
    const problems = unresolved.get(d.organization);
    // A located unresolved reference replaces the diff's own unlocated words about it; the
    // organization's changes are then left out of the plan as a whole: never a partial apply.
    if (!problems) return d;
    return { ...d, problems: [...problems, ...d.problems.filter((p) => p.code !== 'unknown-reference')] };
  });
  const plan = withAccess(
    buildPlan(diffs, desired.targets ? { targets: desired.targets } : {}),
    desired,
    live,
  );
  const inherited = desired.organizations.flatMap(inheritedOf);
  return { desired, live, plan: inherited.length > 0 ? { ...plan, inherited } : plan };
}
