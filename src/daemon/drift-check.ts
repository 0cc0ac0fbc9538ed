import type { ApiClient } from '../api/client.js';
import type { Logger } from '../log/logger.js';
import type { DesiredState } from '../reconcile/index.js';
import { makePlan } from '../pipeline/plan-run.js';
import { onlyOrgs } from '../pipeline/sync.js';
import type { Plan } from '../plan/types.js';
import { failureFields, planFailure, thrownFailure, type RunFailure } from '../pipeline/failure.js';
import type { ConfigTracker } from './config-tracker.js';
import { notify, notifyDriftError, writeDriftReport } from './notify.js';
import type { DaemonParts, DriftReport, RunOutcome, SyncReport } from './types.js';

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
 * The scheduled drift check: plan without applying, report, notify once per distinct drift (and
 * again after the reminder delay), and self-heal in apply mode. A check that cannot read is an
 * error, never "in sync".
 */
export class DriftCheck {
  /** Per organization (each is checked in its own run, issue 34). */
  private readonly lastNotified = new Map<string, { checksum: string; at: number }>();
  private readonly lastErrorNotified = new Map<string, string>();
  private readonly changes = new Map<string, number>();

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

  /** Check one organization (a replica checks, and reports, only those it owns). */
  async run(runId: string, org: string, log: Logger): Promise<void> {
    const desired = this.config.desired;
    if (!desired || !desired.organizations.some((o) => o.id === org)) return;
    const { opts, status, metrics, coordinator } = this.parts;
    if (!coordinator.owns(org)) return;
    const at = new Date().toISOString();
    try {
      const heal = opts.mode === 'apply' && opts.selfHeal;
      const { plan, live } = await makePlan(this.api, onlyOrgs(desired, [org]));
      const failure = planFailure(plan, live);
      // A check that could not read is an error, never "in sync".
      if (failure !== undefined) throw new RunFailed(failure);
      this.read(org);
      metrics.lastDriftSuccess.set(Date.now() / 1000);
      this.lastErrorNotified.delete(org);
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
      };
      log.info({ org, drifted, changes: plan.changes.length, summary: plan.summary }, 'drift checked');
      await this.tell(org, plan, report, log);
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

  /** The drift report file, and a notification when the drift is new or the reminder is due. */
  private async tell(org: string, plan: Plan, report: DriftReport, log: Logger): Promise<void> {
    const { opts } = this.parts;
    const title = report.drifted
      ? 'docsync drift: live state differs from the configuration'
      : 'docsync drift: in sync';
    if (opts.driftReport) await writeDriftReport(opts.driftReport, plan, title);
    const last = this.lastNotified.get(org);
    const changedSinceLast = report.drifted && last?.checksum !== plan.checksum;
    const reminder = report.drifted && last !== undefined && Date.now() - last.at >= opts.reminderMs;
    if (opts.notifyUrl && (changedSinceLast || reminder)) {
      try {
        await notify(opts.notifyUrl, plan, title);
        report.notified = true;
        this.lastNotified.set(org, { checksum: plan.checksum, at: Date.now() });
      } catch (error) {
        log.warn({ err: (error as Error).message }, 'drift notification failed');
      }
    }
    if (!report.drifted) this.lastNotified.delete(org);
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
    const { opts, status, metrics } = this.parts;
    const message = failure.message;
    this.read(org, message);
    metrics.driftErrors.inc();
    const api = failure.endpoint && this.parts.apiUrl ? { apiUrl: this.parts.apiUrl } : {};
    log.error({ org, ...failureFields(failure), ...api }, `drift check failed; drift is unknown: ${message}`);
    if (!opts.notifyUrl || this.lastErrorNotified.get(org) === message) return;
    try {
      await notifyDriftError(opts.notifyUrl, message);
      this.lastErrorNotified.set(org, message);
      if (status.lastDrift) status.lastDrift.notified = true;
    } catch (notifyError) {
      log.warn({ err: (notifyError as Error).message }, 'drift notification failed');
    }
  }
}
