import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import { localDaemonCoordinator, type LocalCoordinator } from '../coord/local.js';
import type { Coordinator } from '../coord/types.js';
import type { Logger } from '../log/logger.js';
import type { DesiredState } from '../model/index.js';
import { configFailure, failureFields, thrownFailure } from '../pipeline/failure.js';
import { runSync } from '../pipeline/sync.js';
import { findRepositoryRoot } from '../secrets/indirect.js';
import type { ConfigSource } from '../source/types.js';
import { ConfigTracker } from './config-tracker.js';
import { DriftCheck } from './drift-check.js';
import { readFailure } from './health.js';
import type { Metrics } from './metrics.js';
import { RunQueue } from './run-queue.js';
import { Schedule } from './schedule.js';
import { outcomeReport, recordSync, reportedIssues } from './sync-report.js';
import type { DaemonOptions, DaemonParts, DaemonStatus, RunOutcome, Trigger } from './types.js';

export type { DaemonMode, DaemonOptions, DriftReport, SyncReport, Trigger } from './types.js';

/**
 * The long-running worker: watches the source, syncs on new revisions, checks drift on a
 * schedule. Single flight: one run at a time; triggers during a run coalesce into one follow-up.
 */
export class Daemon {
  readonly status: DaemonStatus;
  ready = false;
  readonly coordinator: Coordinator;
  /** Made here when none was given: the daemon holds its state folder's lock itself. */
  private readonly ownCoordinator: LocalCoordinator | undefined;
  private readonly parts: DaemonParts;
  private readonly config: ConfigTracker;
  private readonly queue = new RunQueue((trigger) => this.run(trigger));
  private readonly schedule: Schedule;
  private readonly driftCheck: DriftCheck;
  private stopping = false;
  /** A replica gained organizations: the next run syncs even if the source did not change. */
  private ownershipChanged = false;

  constructor(
    private readonly source: ConfigSource,
    private readonly api: ApiClient,
    private readonly logger: Logger,
    metrics: Metrics,
    private readonly opts: DaemonOptions,
  ) {
    if (opts.coordinator) this.coordinator = opts.coordinator;
    else this.coordinator = this.ownCoordinator = localDaemonCoordinator(opts.stateDir, logger);
    const coordinator = this.coordinator;
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
    this.parts = { opts, status: this.status, metrics, coordinator, apiUrl: api.http.baseUrl };
    this.config = new ConfigTracker(source, this.parts);
    this.schedule = new Schedule(opts, (kind) => this.trigger(kind));
    this.driftCheck = new DriftCheck(api, this.parts, this.config, (desired, checksum, log) =>
      this.planAndMaybeApply(desired, true, log, checksum),
    );
  }

  /** Rejects (LockError) when the daemon made its own coordinator and another daemon holds the state folder. */
  async start(): Promise<void> {
    await this.ownCoordinator?.startDaemon();
    this.logger.info(
      { mode: this.opts.mode, source: this.source.describe(), intervalMs: this.opts.intervalMs },
      'daemon starting',
    );
    // Watch first, so that no change made during the first sync goes unnoticed.
    await this.schedule.watch(this.source);
    this.trigger('startup');
    this.schedule.start();
  }

  /** Ask for a run. During a run, triggers coalesce into one follow-up (drift wins over a poll). */
  trigger(kind: Trigger): void {
    this.queue.trigger(kind);
  }

  /** Wait for the current run (tests use it). */
  async idle(): Promise<void> {
    await this.queue.idle();
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

  /** Graceful stop: no new triggers; the change in flight finishes; bounded by a timeout. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.queue.close();
    this.status.phase = 'stopping';
    // A fetch in flight is only a read: kill it (and its process group) rather than wait for it.
    await this.source.stop?.();
    await this.schedule.stop();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.opts.stopTimeoutMs).unref());
    await Promise.race([this.idle(), timeout]);
    await this.ownCoordinator?.stop();
    this.logger.info({}, 'daemon stopped');
  }

  private async run(trigger: Trigger): Promise<void> {
    const runId = randomUUID().slice(0, 8);
    const log = this.logger.child({ run: runId, trigger });
    const endTimer = this.parts.metrics.syncDuration.startTimer({ trigger });
    this.status.phase = 'syncing';
    try {
      const changed = await this.config.refresh(log);
      const gained = this.ownershipChanged;
      this.ownershipChanged = false;
      if (changed || gained || trigger === 'startup') await this.sync(runId, trigger, log);
      if (trigger === 'drift') await this.driftCheck.run(runId, log);
    } catch (error) {
      const failure = thrownFailure(error);
      log.error({ ...failureFields(failure), apiUrl: this.parts.apiUrl }, `run failed: ${failure.message}`);
    } finally {
      endTimer();
      this.status.phase = this.stopping ? 'stopping' : 'idle';
      this.ready = true;
    }
  }

  private async sync(runId: string, trigger: Trigger, log: Logger): Promise<void> {
    const { revision, desired, pendingIssues } = this.config;
    const base = {
      runId,
      trigger,
      startedAt: new Date().toISOString(),
      ...(revision ? { revision: revision.id } : {}),
    };
    if (pendingIssues) {
      const issues = reportedIssues(pendingIssues);
      const error = configFailure(pendingIssues, revision?.id);
      recordSync(
        { ...base, result: 'invalid-config', message: error.message, error, issues },
        this.parts,
        log,
      );
      return;
    }
    if (!desired) {
      recordSync({ ...base, result: 'error', message: 'no valid config yet' }, this.parts, log);
      return;
    }
    try {
      const outcome = await this.planAndMaybeApply(desired, this.opts.mode === 'apply', log);
      recordSync({ ...base, ...outcome }, this.parts, log);
    } catch (thrown) {
      const error = thrownFailure(thrown);
      recordSync({ ...base, result: 'error', message: error.message, error }, this.parts, log);
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
  ): Promise<RunOutcome> {
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
        this.opts.journal?.planned(plan, live, this.config.revision?.id);
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
    return outcomeReport(outcome, this.parts);
  }
}
