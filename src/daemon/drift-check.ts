import type { ApiClient } from '../api/client.js';
import type { Logger } from '../log/logger.js';
import type { DesiredState } from '../reconcile/index.js';
import { makePlan } from '../pipeline/plan-run.js';
import { onlyOrgs } from '../pipeline/sync.js';
import type { Plan } from '../plan/types.js';
import { extendPlan } from '../plan/build.js';
import { whoChanged, type Attributions } from '../plan/attribution.js';
import { readAttributions } from '../live/audit.js';
import type { Change } from '../reconcile/index.js';
import type { ChangeRef } from '../notify/events.js';
import { failureFields, planFailure, thrownFailure, type RunFailure } from '../pipeline/failure.js';
import type { ConfigTracker } from './config-tracker.js';
import { commitOf, writeDriftReport } from './notify.js';
import type { DaemonParts, DriftReport, RunOutcome, SyncReport } from './types.js';

/** A change as a notification names it, with who last changed it when the audit log says. */
function changeRef(plan: Plan, c: Change): ChangeRef {
  const a = plan.attributions?.byChange[c.id];
  return { action: c.action, kind: c.kind, address: c.address, ...(a ? { changedBy: a.actor } : {}) };
}

/** A check that failed for a reason already put in words (the plan's read errors). */
class RunFailed extends Error {
  constructor(readonly failure: RunFailure) {
    super(failure.message);
  }
}

/**
 * Apply `desired` only if the fresh plan still has `checksum` (the plan the drift check made);
 * the run is recorded (history, status, metrics) as `base` says.
 */
export type SelfHeal = (
  desired: DesiredState,
  checksum: string,
  base: Pick<SyncReport, 'runId' | 'trigger' | 'startedAt' | 'revision'>,
  log: Logger,
) => Promise<RunOutcome>;

/**
 * The scheduled drift check: plan without applying, report, notify (the notifier sends each
 * distinct drift once, and again after the reminder delay), and self-heal in apply mode. A check
 * that cannot read is an error, never "in sync".
 */
export class DriftCheck {
  /** Per organization (each is checked in its own run, issue 34). */
  private readonly changes = new Map<string, number>();
  /** Who changed the last drift seen, per organization: the same drift (checksum) is not read again. */
  private readonly named = new Map<string, { checksum: string; attributions: Attributions }>();

  constructor(
    private readonly api: ApiClient,
    private readonly parts: DaemonParts,
    private readonly config: ConfigTracker,
    private readonly selfHeal: SelfHeal,
    /** Drift was found in the organization (a change seen, to be applied). */
    private readonly drifted: (org: string) => void = () => {},
    /** The check's read of the organization ended (an error when it failed): readiness is per organization. */
    private readonly read: (org: string, error?: string) => void = () => {},
  ) {}

  /**
   * Check one organization (a replica checks, and reports, only those it owns). `log` is the run's
   * logger, which names the organization: its lines do not name it again.
   */
  async run(runId: string, org: string, log: Logger): Promise<void> {
    const desired = this.config.desired;
    if (!desired || !desired.organizations.some((o) => o.id === org)) return;
    const { opts, status, metrics, coordinator } = this.parts;
    if (!coordinator.owns(org)) return;
    const at = new Date().toISOString();
    try {
      const heal = opts.mode === 'apply' && opts.selfHeal;
      const run = await makePlan(this.api, onlyOrgs(desired, [org]));
      const { live } = run;
      const failure = planFailure(run.plan, live);
      // A check that could not read is an error, never "in sync".
      if (failure !== undefined) throw new RunFailed(failure);
      this.read(org);
      // Who changed what (the audit log): never fails the check; a report says when it is unknown.
      const plan =
        run.plan.changes.length > 0
          ? extendPlan(run.plan, { attributions: await this.attributions(org, run.plan) })
          : run.plan;
      const changedBy = whoChanged(plan.attributions);
      metrics.lastDriftSuccess.set(Date.now() / 1000);
      const drifted = plan.changes.length > 0;
      if (drifted) this.drifted(org);
      this.changes.set(org, plan.changes.length);
      metrics.driftChanges.set([...this.changes.values()].reduce((a, b) => a + b, 0));
      const report: DriftReport = {
        at,
        drifted,
        changes: plan.changes.length,
        checksum: plan.checksum,
        summary: plan.summary,
        corrected: false,
        notified: false,
        ...(changedBy ? { changedBy } : {}),
      };
      log.info({ drifted, changes: plan.changes.length, summary: plan.summary }, 'drift checked');
      await this.tell(org, plan, report);
      status.lastDrift = report;
      // The journal's plan and record together, with no await between (organizations run at once).
      opts.journal?.planned(plan, live, this.config.revision?.id);
      void opts.journal?.drifted(runId, report, this.config.revision?.id);
      if (drifted && heal) await this.heal(runId, onlyOrgs(desired, [org]), plan.checksum, report, log);
    } catch (error) {
      status.lastDrift = {
        at,
        drifted: false,
        changes: 0,
        checksum: '',
        summary: { create: 0, update: 0, delete: 0, move: 0 },
        corrected: false,
        notified: false,
        error: (error as Error).message,
      };
      void opts.journal?.drifted(runId, status.lastDrift, this.config.revision?.id);
      await this.failed(org, error instanceof RunFailed ? error.failure : thrownFailure(error), at, log);
    }
  }

  /** Who changed the drifted resources: read from the audit log once per distinct drift. */
  private async attributions(org: string, plan: Plan): Promise<Attributions> {
    const known = this.named.get(org);
    if (known && known.checksum === plan.checksum) return known.attributions;
    const attributions = await readAttributions(this.api, org, plan.changes);
    if (!attributions.unavailable) this.named.set(org, { checksum: plan.checksum, attributions });
    return attributions;
  }

  /** The drift report file, and the notifier (which sends a drift once, and again when the reminder is due). */
  private async tell(org: string, plan: Plan, report: DriftReport): Promise<void> {
    const { opts, notifier, status } = this.parts;
    const title = report.drifted
      ? 'docsync drift: live state differs from the configuration'
      : 'docsync drift: in sync';
    if (opts.driftReport) await writeDriftReport(opts.driftReport, plan, title);
    const base = { org, ...commitOf(status, this.config.revision?.id) };
    report.notified =
      (await notifier?.observe(
        report.drifted
          ? {
              ...base,
              kind: 'drift',
              checksum: plan.checksum,
              counts: plan.summary,
              changes: plan.changes.map((c) => changeRef(plan, c)),
              healing: opts.mode === 'apply' && opts.selfHeal,
              ...(report.changedBy ? { who: report.changedBy } : {}),
            }
          : { ...base, kind: 'in-sync' },
      )) ?? false;
  }

  /** Self-heal applies the plan this check computed, unless live state moved since. */
  private async heal(
    runId: string,
    desired: DesiredState,
    checksum: string,
    report: DriftReport,
    log: Logger,
  ): Promise<void> {
    const revision = this.config.revision;
    const base = {
      runId,
      trigger: 'drift' as const,
      startedAt: report.at,
      ...(revision ? { revision: revision.id } : {}),
    };
    const outcome = await this.selfHeal(desired, checksum, base, log);
    report.corrected = outcome.result === 'applied' || outcome.result === 'no-changes';
  }

  /** A drift check that could not read: metric, error log, not ready, one notification per distinct error. */
  private async failed(org: string, failure: RunFailure, at: string, log: Logger): Promise<void> {
    const { status, metrics } = this.parts;
    const message = failure.message;
    this.read(org, message);
    metrics.driftErrors.inc();
    const api = failure.endpoint && this.parts.apiUrl ? { apiUrl: this.parts.apiUrl } : {};
    log.error({ ...failureFields(failure), ...api }, `drift check failed; drift is unknown: ${message}`);
    const notified = await this.parts.notifier?.observe({
      org,
      ...commitOf(status, this.config.revision?.id),
      kind: 'drift-error',
      error: message,
      code: failure.code,
    });
    if (notified && status.lastDrift) status.lastDrift.notified = true;
  }
}
