import type { ErrorCode } from '../errors.js';
import type { Plan } from './types.js';

export type SafetyRefusal = {
  organization: string;
  code: Extract<ErrorCode, 'too-many-deletes' | 'deletes-everything'>;
  message: string;
};

/**
 * Refuse plans that delete more than an organization's `policy.maxDeletes`, or every managed
 * resource it has while creating nothing (an emptied config), unless `allowDeletes` covers the number of deletions.
 */
export function checkSafety(plan: Plan, allowDeletes = 0): SafetyRefusal[] {
  const refusals: SafetyRefusal[] = [];
  for (const g of plan.guards) {
    if (g.deletes === 0 || allowDeletes >= g.deletes) continue;
    if (g.deletes > g.maxDeletes)
      refusals.push({
        organization: g.organization,
        code: 'too-many-deletes',
        message: `${g.organization}: the plan deletes ${g.deletes} resources, more than policy.maxDeletes (${g.maxDeletes}); review it and pass --allow-deletes ${g.deletes} to proceed`,
      });
    else if (g.managedLive > 0 && g.deletes >= g.managedLive && g.creates === 0)
      refusals.push({
        organization: g.organization,
        code: 'deletes-everything',
        message: `${g.organization}: the plan deletes every managed resource (${g.deletes}); if that is intended, pass --allow-deletes ${g.deletes}`,
      });
  }
  return refusals;
}
