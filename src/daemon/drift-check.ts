import type { ApiClient } from '../api/client.js';
import type { Logger } from '../log/logger.js';
import type { DesiredState } from '../model/index.js';
import { makePlan } from '../pipeline/plan-run.js';
import { onlyOrgs } from '../pipeline/sync.js';
import type { Plan } from '../plan/types.js';
import type { ConfigTracker } from './config-tracker.js';
import { failureFields, planFailure, thrownFailure, type RunFailure } from '../pipeline/failure.js';

import { notify, notifyDriftError, writeDriftReport } from './notify.js';
import { recordSync } from './sync-report.js';
import type { DaemonParts, DriftReport, RunOutcome } from './types.js';

/** A check that failed for a reason already put in words (the plan's read errors). */
class RunFailed extends Error {
  constructor(readonly failure: RunFailure) {
    super(failure.message);
  }
}

/** Apply `desired` only if the fresh plan still has `checksum` (the plan the drift check made). */
export type SelfHeal = (desired: DesiredState, checksum: string, log: Logger) => Promise<RunOutcome>;

/**
 * The scheduled drift check: plan without applying, report, notify once per distinct drift (and
 * again after the reminder delay), and self-heal in apply mode. A check that cannot read is an
 * error, never "in sync".
 */
export class DriftCheck {
  private lastNotified: { checksum: string; at: number } | null = null;
  private lastErrorNotified: string | null = null;

  constructor(
    private readonly api: ApiClient,
    private readonly parts: DaemonParts,
    private readonly config: ConfigTracker,
    private readonly selfHeal: SelfHeal,
  ) {}

  async run(runId: string, log: Logger): Promise<void> {
    const desired = this.config.desired;
    if (!desired) return;
    const { opts, status, metrics, coordinator } = this.parts;
    const at = new Date().toISOString();
    try {
      const heal = opts.mode === 'apply' && opts.selfHeal;
      // A replica checks (and reports) only the organizations it owns.
      const owned = desired.organizations.map((o) => o.id).filter((o) => coordinator.owns(o));
      const { plan, live } = await makePlan(this.api, onlyOrgs(desired, owned));
      opts.journal?.planned(plan, live, this.config.revision?.id);
      // A check that could not read is an error, never "in sync".
      const failure = planFailure(plan, live);
      if (failure !== undefined) throw new RunFailed(failure);
      status.liveRead = { ok: true, at };
      metrics.lastDriftSuccess.set(Date.now() / 1000);
      this.lastErrorNotified = null;
      const drifted = plan.changes.length > 0;
      metrics.driftChanges.set(plan.changes.length);
      const report: DriftReport = {
        at,
        drifted,
        changes: plan.changes.length,
        checksum: plan.checksum,
        summary: plan.summary,
        corrected: false,
        notified: false,
      };
      log.info({ drifted, changes: plan.changes.length, summary: plan.summary }, 'drift checked');
      await this.tell(plan, report, log);
      status.lastDrift = report;
      void opts.journal?.drifted(runId, report, this.config.revision?.id);
      if (drifted && heal) await this.heal(runId, onlyOrgs(desired, owned), plan.checksum, report, log);
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
      await this.failed(error instanceof RunFailed ? error.failure : thrownFailure(error), at, log);
    }
  }

  /** The drift report file, and a notification when the drift is new or the reminder is due. */
  private async tell(plan: Plan, report: DriftReport, log: Logger): Promise<void> {
    const { opts } = this.parts;
    const title = report.drifted
      ? 'docsync drift: live state differs from the configuration'
      : 'docsync drift: in sync';
    if (opts.driftReport) await writeDriftReport(opts.driftReport, plan, title);
    const changedSinceLast = report.drifted && this.lastNotified?.checksum !== plan.checksum;
    const reminder =
      report.drifted && this.lastNotified !== null && Date.now() - this.lastNotified.at >= opts.reminderMs;
    if (opts.notifyUrl && (changedSinceLast || reminder)) {
      try {
        await notify(opts.notifyUrl, plan, title);
        report.notified = true;
        this.lastNotified = { checksum: plan.checksum, at: Date.now() };
      } catch (error) {
        log.warn({ err: (error as Error).message }, 'drift notification failed');
      }
    }
    if (!report.drifted) this.lastNotified = null;
  }

  /** Self-heal applies the plan this check computed, unless live state moved since. */
  private async heal(
    runId: string,
    desired: DesiredState,
    checksum: string,
    report: DriftReport,
    log: Logger,
  ): Promise<void> {
    const outcome = await this.selfHeal(desired, checksum, log);
    report.corrected = outcome.result === 'applied' || outcome.result === 'no-changes';
    const revision = this.config.revision;
    recordSync(
      {
        runId,
        trigger: 'drift',
        startedAt: report.at,
        ...(revision ? { revision: revision.id } : {}),
        result: outcome.result,
        summary: outcome.summary,
        ...(outcome.applied !== undefined ? { applied: outcome.applied } : {}),
        ...(outcome.failedChanges !== undefined ? { failedChanges: outcome.failedChanges } : {}),
        ...(outcome.message ? { message: outcome.message } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
      },
      this.parts,
      log,
    );
  }

  /** A drift check that could not read: metric, error log, not ready, one notification per distinct error. */
  private async failed(failure: RunFailure, at: string, log: Logger): Promise<void> {
    const { opts, status, metrics } = this.parts;
    const message = failure.message;
    status.liveRead = { ok: false, at, error: message };
    metrics.driftErrors.inc();
    const api = failure.endpoint && this.parts.apiUrl ? { apiUrl: this.parts.apiUrl } : {};
    log.error({ ...failureFields(failure), ...api }, `drift check failed; drift is unknown: ${message}`);
    if (!opts.notifyUrl || this.lastErrorNotified === message) return;
    try {
      await notifyDriftError(opts.notifyUrl, message);
      this.lastErrorNotified = message;
      if (status.lastDrift) status.lastDrift.notified = true;
    } catch (notifyError) {
      log.warn({ err: (notifyError as Error).message }, 'drift notification failed');
    }
  }
}
