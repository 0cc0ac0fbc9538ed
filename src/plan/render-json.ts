import type { DesiredState } from '../reconcile/index.js';
import { redactText } from '../model/redact.js';
import type { Plan } from './types.js';

/** The machine form of CONTRACT.md section 3 (plus checksum, errors and, for saved plans, the desired state). */
export function planDocument(plan: Plan, desired?: DesiredState): Record<string, unknown> {
  return {
    formatVersion: plan.formatVersion,
    organizations: plan.organizations,
    changes: plan.changes,
    summary: plan.summary,
    refusals: (plan.refusals ?? []).map((r) => ({
      organization: r.organization,
      guard: r.guard,
      code: r.code,
      message: r.message,
      override: r.override,
    })),
    ...(plan.redirects && plan.redirects.length > 0 ? { redirects: plan.redirects } : {}),
    ...(plan.partial ? { partial: true, targets: plan.partial.targets } : {}),
    ...(plan.ignored && plan.ignored.length > 0 ? { ignored: plan.ignored } : {}),
    unmanaged: plan.unmanaged,
    errors: plan.errors,
    warnings: plan.warnings ?? [],
    ...(plan.duplicates && plan.duplicates.length > 0 ? { duplicates: plan.duplicates } : {}),
    checksum: plan.checksum,
    ...(plan.inherited && plan.inherited.length > 0 ? { inherited: plan.inherited } : {}),
    ...(plan.attributions ? { attributions: plan.attributions } : {}),
    ...(plan.access && plan.access.length > 0 ? { access: plan.access } : {}),
    ...(desired ? { desired } : {}),
  };
}

export function renderJson(plan: Plan, desired?: DesiredState): string {
  return `${redactText(JSON.stringify(planDocument(plan, desired), null, 2))}\n`;
}
