import type { DesiredState, LiveState } from '../reconcile/state.js';
import type { Plan, PlanAccessChange } from '../plan/types.js';
import { extendPlan } from '../plan/build.js';
import { diffAccess, effectiveAccess } from '../access/effective.js';
import { emailsOf, grantedAccessModels } from '../access/model.js';

/**
 * The plan with its effective-access difference (`plan.access`, decision 35): per organization
 * that has changes and no error, the access now (live state) against the access after the plan
 * (the desired state resolved against the live one). A partial plan (`--target`) carries none:
 * what it leaves out would be counted as done. Pure.
 */
export function withAccess(plan: Plan, desired: DesiredState, live: LiveState): Plan {
  if (plan.partial) return plan;
  const failed = new Set(plan.errors.map((e) => e.organization));
  const access: PlanAccessChange[] = [];
  for (const org of desired.organizations) {
    const now = live.organizations.find((o) => o.id === org.id);
    if (!now || now.readError !== undefined || failed.has(org.id) || failed.has('*')) continue;
    if (!plan.changes.some((c) => c.address.startsWith(`${org.id}/`))) continue;
    const { before, after } = grantedAccessModels(org, now);
    const emails = emailsOf(before, after);
    for (const c of diffAccess(effectiveAccess(before), effectiveAccess(after), emails))
      access.push({ organization: org.id, ...c });
  }
  return access.length > 0 ? extendPlan(plan, { access }) : plan;
}
