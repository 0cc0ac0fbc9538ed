import type { ApiClient } from '../api/client.js';
import type { ApplyResult } from '../apply/result.js';
import { applyPlan, type ApplyOptions } from '../apply/run.js';
import { verifyApplied, type Verification } from './verify.js';
import type { Holds } from '../coord/types.js';
import type { DesiredState } from '../reconcile/index.js';
import { checkSafety, refusalLine } from '../plan/safety.js';
import type { SafetyRefusal } from '../plan/types.js';
import type { Plan } from '../plan/types.js';
import { makePlan, type PlanRun } from './plan-run.js';

/**
 * The one sync sequence (issue 15): take ownership, read, plan, guard, apply, report. The CLI's
 * `apply`, the daemon's sync and drift self-heal all run it; they differ only in what they pass.
 */
export type SyncRequest = {
  api: ApiClient;
  desired: DesiredState;
  /** false: stop after the plan (plan mode). */
  apply: boolean;
  allowDeletes: number;
  /** `--allow-updates`: lifts a `policy.maxUpdates` refusal of up to this many updates. */
  allowUpdates?: number;
  /** Take the organizations' ownership before the live read; released when the run ends. */
  hold: (orgs: string[]) => Promise<Holds>;
  /**
   * Apply only if the fresh plan has this checksum: a saved plan (`apply --plan`), or the plan
   * the drift check computed (self-heal applies it unless live state moved).
   */
  expectChecksum?: string;
  onPlanned?: (run: PlanRun) => void;
  /** The last word before writing (the CLI's confirmation); false cancels. */
  approve?: (plan: Plan) => Promise<boolean>;
  applyOptions?: Omit<ApplyOptions, 'gateFor'>;
  /**
   * Why apply may not run now (the organization is suspended, a sync window is closed), for the
   * organizations held: then the run plans and stops (`skipped`, "apply skipped: …").
   */
  applyBlocked?: (orgs: string[]) => string | undefined;
  /** Re-read what the apply changed and report whether it converged (default true). */
  verify?: boolean;
};

export type SyncOutcome =
  | { result: 'not-owned'; orgs: string[] }
  | {
      result: 'failed' | 'moved' | 'no-changes' | 'planned' | 'skipped' | 'refused' | 'cancelled' | 'applied';
      orgs: string[];
      run: PlanRun;
      refusals?: SafetyRefusal[];
      applied?: ApplyResult;
      /** After an apply that changed something: the re-read's verdict (src/pipeline/verify.ts). */
      verified?: Verification;
      message?: string;
    };

/** Keep only the organizations held (a replica plans and writes what it owns). */
export function onlyOrgs(desired: DesiredState, orgs: readonly string[]): DesiredState {
  return { ...desired, organizations: desired.organizations.filter((o) => orgs.includes(o.id)) };
}

export async function runSync(req: SyncRequest): Promise<SyncOutcome> {
  const holds = await req.hold(req.desired.organizations.map((o) => o.id));
  try {
    const orgs = holds.orgs;
    if (orgs.length === 0 && req.desired.organizations.length > 0) return { result: 'not-owned', orgs };
    const run = await makePlan(req.api, onlyOrgs(req.desired, orgs));
    req.onPlanned?.(run);
    const { plan } = run;
    const base = { orgs, run };
    if (req.expectChecksum !== undefined && plan.checksum !== req.expectChecksum)
      return { ...base, result: 'moved', message: 'live state changed since this plan was made' };
    if (plan.errors.length > 0)
      return { ...base, result: 'failed', message: plan.errors.map((e) => e.message).join('; ') };
    if (plan.changes.length === 0) return { ...base, result: 'no-changes' };
    if (!req.apply) return { ...base, result: 'planned' };
    const blocked = req.applyBlocked?.(orgs);
    if (blocked !== undefined) return { ...base, result: 'skipped', message: `apply skipped: ${blocked}` };
    // The verdict the plan showed (plan.refusals), less what --allow-deletes/--allow-updates override.
    const refusals = checkSafety(plan, req.allowDeletes, req.allowUpdates ?? 0);
    if (refusals.length > 0)
      return { ...base, result: 'refused', refusals, message: refusals.map(refusalLine).join('; ') };
    if (req.approve && !(await req.approve(plan))) return { ...base, result: 'cancelled' };
    const applied = await applyPlan(plan, req.api, { ...req.applyOptions, gateFor: holds.gateFor });
    const result = applied.ok ? 'applied' : 'failed';
    // Verified while the organizations are still held: no other writer of docsync moves them meanwhile.
    if (req.verify === false || applied.applied === 0) return { ...base, result, applied };
    return { ...base, result, applied, verified: await verifyApplied(req.api, run.desired, applied) };
  } finally {
    await holds.release();
  }
}
