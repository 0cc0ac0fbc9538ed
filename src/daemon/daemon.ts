import { randomUUID } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import type { ApiClient } from '../api/client.js';
import { LocalCoordinator } from '../coord/local.js';
import type { CoordinationStatus, Coordinator } from '../coord/types.js';
import { findRepositoryRoot } from '../secrets/indirect.js';
import { ConfigFileCache } from '../config/file-cache.js';
import { loadConfig } from '../config/load.js';
import type { ConfigIssue } from '../config/issues.js';
import type { Logger } from '../log/logger.js';
import type { DesiredState } from '../model/index.js';
import type { Plan } from '../plan/types.js';
import { makePlan } from '../pipeline/plan-run.js';
import { onlyOrgs, runSync, type SyncOutcome } from '../pipeline/sync.js';
import type { ConfigSource, Revision } from '../source/types.js';
import type { Metrics } from './metrics.js';
import type { RunJournal } from './runs/journal.js';
import { readFailure, type LiveRead } from './health.js';
import { notify, notifyDriftError, writeDriftReport } from './notify.js';

export type DaemonMode = 'apply' | 'plan';
export type Trigger = 'startup' | 'poll' | 'webhook' | 'watch' | 'drift' | 'ownership';

export type DaemonOptions = {
  mode: DaemonMode;
  intervalMs: number;
  driftCron?: string;
  selfHeal: boolean;
  allowDeletes: number;
  stateDir: string;
  driftReport?: string;
  notifyUrl?: string;
  /** Notify again about unchanged drift after this long. */
  reminderMs: number;
  stopTimeoutMs: number;
  /** Run history and the latest plan, for `/api/runs` and the status page. */
  journal?: RunJournal;
  /** Who may write which organization (decision 21); default: the lock files in `stateDir`. */
  coordinator?: Coordinator;
};

export type SyncReport = {
  runId: string;
  trigger: Trigger;
  startedAt: string;
  finishedAt?: string;
  result: 'applied' | 'planned' | 'no-changes' | 'invalid-config' | 'failed' | 'refused' | 'error';
  revision?: string;
  summary?: Plan['summary'];
  applied?: number;
  failedChanges?: number;
  message?: string;
  issues?: Pick<ConfigIssue, 'file' | 'line' | 'column' | 'path' | 'message' | 'code'>[];
};

export type DriftReport = {
  at: string;
  drifted: boolean;
  changes: number;
  checksum: string;
  summary: Plan['summary'];
  corrected: boolean;
  notified: boolean;
  error?: string;
};

/**
 * The long-running worker: watches the source, syncs on new revisions, checks drift on a
 * schedule. Single flight: one run at a time; triggers during a run coalesce into one follow-up.
 */
export class Daemon {
  readonly status: {
    phase: 'starting' | 'idle' | 'syncing' | 'stopping';
    mode: DaemonMode;
    /** The API flavor the daemon speaks (docs/compatibility.md). */
    api: { flavor: ApiClient['flavor'] };
    source: Record<string, string> & {
      revision?: string;
      subject?: string;
      time?: string;
      lastFetchError?: string;
      lastFetchAt?: string;
    };
    configValid: boolean | null;
    lastSync: SyncReport | null;
    lastDrift: DriftReport | null;
    /** The last attempt to read live state (sync or drift); `/readyz` fails while it failed. */
    liveRead?: LiveRead | null;
    /** Which organizations this replica writes, among which members (decision 21). */
    readonly coordination?: CoordinationStatus;
  };
  ready = false;
  private desired: DesiredState | null = null;
  private revision: Revision | null = null;
  private running: Promise<void> | null = null;
  private queued: Trigger | null = null;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private cronTask: ScheduledTask | undefined;
  private stopWatch: (() => Promise<void>) | undefined;
  private lastNotified: { checksum: string; at: number } | null = null;
  private lastErrorNotified: string | null = null;
  /** A replica gained organizations: the next run syncs even if the source did not change. */
  private ownershipChanged = false;
  readonly coordinator: Coordinator;

  constructor(
    private readonly source: ConfigSource,
    private readonly api: ApiClient,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly opts: DaemonOptions,
  ) {
    const coordinator =
      opts.coordinator ??
      new LocalCoordinator(opts.stateDir, 'docsync daemon', (message) =>
        logger.warn({ message }, 'stale lock taken over'),
      );
    this.coordinator = coordinator;
    this.status = {
      get coordination() {
        return coordinator.status();
      },
      phase: 'starting',
      mode: opts.mode,
      api: { flavor: api.flavor },
      source: source.describe(),
      configValid: null,
      lastSync: null,
      lastDrift: null,
      liveRead: null,
    };
  }

  async start(): Promise<void> {
    this.logger.info(
      { mode: this.opts.mode, source: this.source.describe(), intervalMs: this.opts.intervalMs },
      'daemon starting',
    );
    // Watch first, so that no change made during the first sync goes unnoticed.
    if (this.source.watch) this.stopWatch = await this.source.watch(() => this.trigger('watch'));
    this.trigger('startup');
    this.schedulePoll();
    if (this.opts.driftCron) {
      this.cronTask = cron.schedule(this.opts.driftCron, () => this.trigger('drift'), { noOverlap: true });
    }
  }

  /** Ask for a run. During a run, triggers coalesce into one follow-up (drift wins over a poll). */
  trigger(kind: Trigger): void {
    if (this.stopping) return;
    if (this.running) {
      this.queued = this.queued === 'drift' ? 'drift' : kind;
      return;
    }
    this.running = this.run(kind).finally(() => {
      this.running = null;
      const next = this.queued;
      this.queued = null;
      if (next && !this.stopping) this.trigger(next);
    });
  }

  /** Wait for the current run (tests use it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedulePoll(): void {
    if (this.stopping) return;
    const jitter = Math.floor(Math.random() * Math.min(5_000, this.opts.intervalMs * 0.1));
    this.timer = setTimeout(() => {
      this.trigger('poll');
      this.schedulePoll();
    }, this.opts.intervalMs + jitter);
    this.timer.unref?.();
  }

  private async run(trigger: Trigger): Promise<void> {
    const runId = randomUUID().slice(0, 8);
    const log = this.logger.child({ run: runId, trigger });
    const endTimer = this.metrics.syncDuration.startTimer({ trigger });
    this.status.phase = 'syncing';
    try {
      const changed = await this.refreshSource(log);
      const gained = this.ownershipChanged;
      this.ownershipChanged = false;
      if (changed || gained || trigger === 'startup') await this.sync(runId, trigger, log);
      if (trigger === 'drift') await this.drift(runId, log);
    } catch (error) {
      log.error({ err: (error as Error).message }, 'run failed');
    } finally {
      endTimer();
      this.status.phase = this.stopping ? 'stopping' : 'idle';
      this.ready = true;
    }
  }

  /** Fetch the source; true when the revision changed. A failed fetch keeps the last good revision. */
  private async refreshSource(log: Logger): Promise<boolean> {
    try {
      const revision = await this.source.refresh();
      this.status.source.lastFetchAt = new Date().toISOString();
      delete this.status.source.lastFetchError;
      if (this.revision?.id === revision.id) return false;
      this.revision = revision;
      this.status.source.revision = revision.id;
      if (revision.subject !== undefined) this.status.source.subject = revision.subject;
      if (revision.time !== undefined) this.status.source.time = revision.time;
      this.metrics.sourceInfo.reset();
      this.metrics.sourceInfo.set({ revision: revision.id }, 1);
      log.info({ revision: revision.id, subject: revision.subject }, 'new revision');
      const result = await loadConfig(this.source.configDir, undefined, { cache: this.configCache });
      if (!result.desired) {
        this.status.configValid = false;
        this.pendingIssues = result.issues;
        log.error(
          { revision: revision.id, errors: result.issues.filter((i) => i.severity === 'error').length },
          'invalid config; keeping the last good one',
        );
        return true;
      }
      this.status.configValid = true;
      this.pendingIssues = null;
      this.desired = result.desired;
      this.coordinator.manage(result.desired.organizations.map((o) => o.id));
      return true;
    } catch (error) {
      this.status.source.lastFetchError = (error as Error).message;
      log.error({ err: (error as Error).message }, 'source refresh failed; keeping the last good revision');
      return false;
    }
  }

  private pendingIssues: ConfigIssue[] | null = null;
  /** Files parsed by earlier reloads: a change to one file re-parses only that file. */
  private readonly configCache = new ConfigFileCache();

  private report(r: SyncReport, log: Logger): void {
    r.finishedAt = new Date().toISOString();
    this.status.lastSync = r;
    void this.opts.journal?.synced(r);
    this.metrics.syncTotal.inc({ result: r.result });
    if (r.result === 'applied' || r.result === 'planned' || r.result === 'no-changes')
      this.metrics.lastSuccess.set(Date.now() / 1000);
    log.info(
      {
        result: r.result,
        revision: r.revision,
        summary: r.summary,
        applied: r.applied,
        failed: r.failedChanges,
      },
      'sync finished',
    );
  }

  private async sync(runId: string, trigger: Trigger, log: Logger): Promise<void> {
    const base = {
      runId,
      trigger,
      startedAt: new Date().toISOString(),
      ...(this.revision ? { revision: this.revision.id } : {}),
    };
    if (this.pendingIssues) {
      const issues = this.pendingIssues
        .filter((i) => i.severity === 'error')
        .map(({ file, line, column, path, message, code }) => ({ file, line, column, path, message, code }));
      this.report(
        { ...base, result: 'invalid-config', message: 'the config is invalid; nothing was applied', issues },
        log,
      );
      return;
    }
    if (!this.desired) {
      this.report({ ...base, result: 'error', message: 'no valid config yet' }, log);
      return;
    }
    try {
      const outcome = await this.planAndMaybeApply(this.desired, this.opts.mode === 'apply', log);
      this.report({ ...base, ...outcome }, log);
    } catch (error) {
      this.report({ ...base, result: 'error', message: (error as Error).message }, log);
    }
  }

  /**
   * One pass of the sync pipeline (src/pipeline/sync.ts) as the daemon runs it: only the
   * organizations this replica holds; with `expectChecksum`, only the plan the drift check made.
   */
  private async planAndMaybeApply(
    desired: DesiredState,
    apply: boolean,
    log: Logger,
    expectChecksum?: string,
  ): Promise<Pick<SyncReport, 'result' | 'summary' | 'applied' | 'failedChanges' | 'message'>> {
    const outcome = await runSync({
      api: this.api,
      desired,
      apply,
      allowDeletes: this.opts.allowDeletes,
      // Plan mode writes nothing, so it takes no lock (a replica still plans only what it owns).
      hold: async (orgs) =>
        apply
          ? this.coordinator.hold(orgs, 60_000)
          : {
              orgs: orgs.filter((o) => this.coordinator.owns(o)),
              gateFor: () => undefined,
              release: async () => {},
            },
      ...(expectChecksum !== undefined ? { expectChecksum } : {}),
      onPlanned: ({ plan, live }) => {
        this.opts.journal?.planned(plan, live, this.revision?.id);
        const failure = readFailure(plan.errors);
        this.status.liveRead = {
          ok: failure === undefined,
          at: new Date().toISOString(),
          ...(failure !== undefined ? { error: failure } : {}),
        };
      },
      applyOptions: {
        logger: log,
        shouldStop: () => this.stopping,
        configRoot: findRepositoryRoot(this.source.configDir),
      },
    });
    return this.outcomeReport(outcome);
  }

  private outcomeReport(
    outcome: SyncOutcome,
  ): Pick<SyncReport, 'result' | 'summary' | 'applied' | 'failedChanges' | 'message'> {
    if (outcome.result === 'not-owned')
      return {
        result: 'no-changes',
        message: `replica ${this.coordinator.status().replica} owns none of the configured organizations now`,
      };
    const summary = outcome.run.plan.summary;
    if (outcome.applied) {
      this.opts.journal?.applied(outcome.applied);
      for (const r of outcome.applied.results)
        if (r.status === 'applied') this.metrics.changesApplied.inc({ kind: r.kind, action: r.action });
      return {
        result: outcome.result === 'applied' ? 'applied' : 'failed',
        summary,
        applied: outcome.applied.applied,
        failedChanges: outcome.applied.failed,
      };
    }
    switch (outcome.result) {
      case 'moved':
        return {
          result: 'refused',
          summary,
          message: 'live state changed since the drift check; not applied',
        };
      case 'cancelled':
        return { result: 'refused', summary, message: 'cancelled' };
      default:
        return {
          result: outcome.result,
          summary,
          ...(outcome.message !== undefined ? { message: outcome.message } : {}),
        };
    }
  }

  /** The coordinator gave this replica organizations: sync them now. */
  ownershipGained(orgs: string[]): void {
    this.logger.info({ orgs }, 'organizations gained; syncing them');
    this.ownershipChanged = true;
    this.trigger('ownership');
  }

  /** Another replica received a push: fetch now rather than at the next poll. */
  peerAnnounced(): void {
    this.logger.info({}, 'another replica received a push; fetching');
    this.trigger('webhook');
  }

  private async drift(runId: string, log: Logger): Promise<void> {
    if (!this.desired) return;
    const at = new Date().toISOString();
    try {
      const heal = this.opts.mode === 'apply' && this.opts.selfHeal;
      // A replica checks (and reports) only the organizations it owns.
      const owned = this.desired.organizations.map((o) => o.id).filter((o) => this.coordinator.owns(o));
      const { plan, live } = await makePlan(this.api, onlyOrgs(this.desired, owned));
      this.opts.journal?.planned(plan, live, this.revision?.id);
      const failure = readFailure(plan.errors);
      // A check that could not read is an error, never "in sync".
      if (failure !== undefined) throw new Error(failure);
      this.status.liveRead = { ok: true, at };
      this.metrics.lastDriftSuccess.set(Date.now() / 1000);
      this.lastErrorNotified = null;
      const drifted = plan.changes.length > 0;
      this.metrics.driftChanges.set(plan.changes.length);
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
      const title = drifted
        ? 'docsync drift: live state differs from the configuration'
        : 'docsync drift: in sync';
      if (this.opts.driftReport) await writeDriftReport(this.opts.driftReport, plan, title);
      const changedSinceLast = drifted && this.lastNotified?.checksum !== plan.checksum;
      const reminder =
        drifted && this.lastNotified !== null && Date.now() - this.lastNotified.at >= this.opts.reminderMs;
      if (this.opts.notifyUrl && (changedSinceLast || reminder)) {
        try {
          await notify(this.opts.notifyUrl, plan, title);
          report.notified = true;
          this.lastNotified = { checksum: plan.checksum, at: Date.now() };
        } catch (error) {
          log.warn({ err: (error as Error).message }, 'drift notification failed');
        }
      }
      if (!drifted) this.lastNotified = null;
      this.status.lastDrift = report;
      void this.opts.journal?.drifted(runId, report, this.revision?.id);
      if (drifted && heal) {
        // Self-heal applies the plan this check computed, unless live state moved since.
        const outcome = await this.planAndMaybeApply(onlyOrgs(this.desired, owned), true, log, plan.checksum);
        report.corrected = outcome.result === 'applied' || outcome.result === 'no-changes';
        this.report(
          {
            runId,
            trigger: 'drift',
            startedAt: at,
            ...(this.revision ? { revision: this.revision.id } : {}),
            result: outcome.result,
            summary: outcome.summary,
            ...(outcome.applied !== undefined ? { applied: outcome.applied } : {}),
            ...(outcome.failedChanges !== undefined ? { failedChanges: outcome.failedChanges } : {}),
            ...(outcome.message ? { message: outcome.message } : {}),
          },
          log,
        );
      }
    } catch (error) {
      this.status.lastDrift = {
        at,
        drifted: false,
        changes: 0,
        checksum: '',
        summary: { create: 0, update: 0, delete: 0, move: 0 },
        corrected: false,
        notified: false,
        error: (error as Error).message,
      };
      void this.opts.journal?.drifted(runId, this.status.lastDrift, this.revision?.id);
      await this.driftFailed((error as Error).message, at, log);
    }
  }

  /** A drift check that could not read: metric, error log, not ready, one notification per distinct error. */
  private async driftFailed(message: string, at: string, log: Logger): Promise<void> {
    this.status.liveRead = { ok: false, at, error: message };
    this.metrics.driftErrors.inc();
    log.error({ err: message }, 'drift check failed; drift is unknown');
    if (!this.opts.notifyUrl || this.lastErrorNotified === message) return;
    try {
      await notifyDriftError(this.opts.notifyUrl, message);
      this.lastErrorNotified = message;
      if (this.status.lastDrift) this.status.lastDrift.notified = true;
    } catch (notifyError) {
      log.warn({ err: (notifyError as Error).message }, 'drift notification failed');
    }
  }

  /** Graceful stop: no new triggers; the change in flight finishes; bounded by a timeout. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.status.phase = 'stopping';
    clearTimeout(this.timer);
    // A fetch in flight is only a read: kill it (and its process group) rather than wait for it.
    await this.source.stop?.();
    await this.cronTask?.stop();
    await this.stopWatch?.();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.opts.stopTimeoutMs).unref());
    await Promise.race([this.idle(), timeout]);
    this.logger.info({}, 'daemon stopped');
  }
}
