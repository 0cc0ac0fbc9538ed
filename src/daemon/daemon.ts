import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import { localDaemonCoordinator, type LocalCoordinator } from '../coord/local.js';
import type { Coordinator } from '../coord/types.js';
import type { Logger } from '../log/logger.js';
import type { DesiredOrganization, DesiredState } from '../reconcile/index.js';
import { configFailure, failureFields, readFailureOf, thrownFailure } from '../pipeline/failure.js';
import { onlyOrgs, runSync, type SyncOutcome } from '../pipeline/sync.js';
import { findRepositoryRoot } from '../secrets/indirect.js';
import type { ConfigSource } from '../source/types.js';
import { ConfigTracker } from './config-tracker.js';
import { DriftCheck } from './drift-check.js';
import type { Metrics } from './metrics.js';
import { OrgControls, withControls } from './org-controls.js';
import { OrgHealth } from './org-health.js';
import { OrgQueue, type OrgJob } from './org-queue.js';
import { RunQueue } from './run-queue.js';
import { daemonNotifier } from './notify.js';
import { Schedule } from './schedule.js';
import { outcomeReport, recordSync, reportedIssues } from './sync-report.js';
import type { DaemonOptions, DaemonParts, DaemonStatus, RunOutcome, SyncReport, Trigger } from './types.js';

export type { DaemonMode, DaemonOptions, DriftReport, SyncReport, Trigger } from './types.js';

/** Organizations synced at once by default (`--org-concurrency`). */
export const DEFAULT_ORG_CONCURRENCY = 4;

/**
 * The long-running worker: watches the source, syncs on new revisions, checks drift on a
 * schedule. The source is fetched by one run at a time (triggers during a fetch coalesce into one
 * follow-up); each organization then syncs in its own queue (src/daemon/org-queue.ts): single
 * flight per organization, several organizations at once, so a slow one never holds up another.
 */
export class Daemon {
  readonly status: DaemonStatus;
  ready = false;
  readonly coordinator: Coordinator;
  /** Suspensions and sync windows: whether a sync may apply (src/daemon/org-controls.ts). */
  readonly controls: OrgControls;
  /** Made here when none was given: the daemon holds its state folder's lock itself. */
  private readonly ownCoordinator: LocalCoordinator | undefined;
  private readonly parts: DaemonParts;
  private readonly config: ConfigTracker;
  private readonly queue = new RunQueue((trigger) => this.run(trigger));
  private readonly orgs: OrgQueue;
  private readonly health: OrgHealth;
  private readonly schedule: Schedule;
  private readonly driftCheck: DriftCheck;
  private stopping = false;
  /** A fetch of the source is in flight. */
  private fetching = false;
  /** No fetch ran yet: readiness waits for the first one and the syncs it starts. */
  private firstRun = true;

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
    const controls = (this.controls = opts.controls ?? OrgControls.inMemory());
    const configured = () => this.config.desired?.organizations ?? [];
    const health = (this.health = new OrgHealth(metrics, () => coordinator.status().owned));
    this.orgs = new OrgQueue(opts.orgConcurrency ?? DEFAULT_ORG_CONCURRENCY, (org, job) =>
      this.runOrg(org, job),
    );
    const phase = () => phaseOf(this.fetching || this.orgs.active > 0, this.stopping, this.ready);
    this.status = {
      get coordination() {
        return coordinator.status();
      },
      get organizations() {
        return withControls(health.status(), controls, configured());
      },
      get phase() {
        return phase();
      },
      mode: opts.mode,
      api: { flavor: api.flavor },
      source: source.describe(),
      configValid: null,
      lastSync: null,
      lastDrift: null,
      // The owned organizations' last reads, the worst first (src/daemon/org-health.ts).
      get liveRead() {
        return health.liveRead();
      },
    };
    this.parts = {
      opts,
      status: this.status,
      metrics,
      coordinator,
      apiUrl: api.http.baseUrl,
      notifier: daemonNotifier(opts, logger),
    };
    this.config = new ConfigTracker(source, this.parts);
    metrics.orgControls.read = () =>
      Object.entries(withControls({}, controls, configured())).map(([org, s]) => ({
        org,
        suspended: s.controls?.suspended ?? false,
        blocked: s.controls?.applyAllowed === false,
      }));
    this.schedule = new Schedule(opts, (kind) => this.trigger(kind));
    this.driftCheck = new DriftCheck(
      api,
      this.parts,
      this.config,
      async (desired, checksum, base, log) => {
        const org = desired.organizations[0]?.id ?? '';
        const outcome = await this.pipeline(
          org,
          desired,
          true,
          log,
          this.config.certificates,
          false,
          checksum,
        );
        return this.record(org, base, outcome, log);
      },
      (org) => this.health.seen([org]),
      (org, error) => this.health.read(org, error),
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

  /** Ask for a fetch of the source (and the syncs it leads to). Triggers during a fetch coalesce into one follow-up. */
  trigger(kind: Trigger): void {
    this.queue.trigger(kind);
  }

  /** Wait until no fetch and no organization's run is in flight or queued (tests use it). */
  async idle(): Promise<void> {
    do {
      await this.queue.idle();
      await this.orgs.idle();
    } while (this.queue.busy);
  }

  /** The coordinator gave this replica organizations: sync them now, each in its own queue. */
  ownershipGained(orgs: string[]): void {
    this.logger.info({ orgs }, 'organizations gained; syncing them');
    this.health.gained(orgs);
    for (const org of orgs) void this.orgs.trigger(org, { sync: 'ownership' });
  }

  /** The organization's config, as the daemon has it now (undefined: not configured). */
  configured(org: string): DesiredOrganization | undefined {
    return this.config.desired?.organizations.find((o) => o.id === org);
  }

  /** A manual sync of one organization (`POST /api/orgs/{org}/sync`): a sync window's manualSync lets it through. */
  manualSync(org: string): Promise<void> {
    return this.orgs.trigger(org, { sync: 'manual' });
  }

  /** Another replica received a push: fetch now rather than at the next poll. */
  peerAnnounced(): void {
    this.logger.info({}, 'another replica received a push; fetching');
    this.trigger('webhook');
  }

  /**
   * Graceful stop: no new triggers; runs in flight stop before their next change, and a run
   * waiting for an ambiguous creation to settle stops waiting. Bounded by the stop timeout, less a
   * reserve in which the caller hands the organizations over (revokes the lease).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.queue.close();
    this.orgs.close();
    // A fetch in flight is only a read: kill it (and its process group) rather than wait for it.
    await this.source.stop?.();
    await this.schedule.stop();
    const waitMs = this.opts.stopTimeoutMs - Math.min(5000, this.opts.stopTimeoutMs / 4);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, waitMs)).unref());
    // Notifications of the last runs go out too, within the same bound.
    await Promise.race([this.idle().then(() => this.parts.notifier?.idle()), timeout]);
    await this.ownCoordinator?.stop();
    this.logger.info({}, 'daemon stopped');
  }

  /** Fetch the source; on a new revision (or at startup), sync each owned organization; on the drift schedule, check each. */
  private async run(trigger: Trigger): Promise<void> {
    const runId = randomUUID().slice(0, 8);
    const log = this.logger.child({ run: runId, trigger });
    this.fetching = true;
    const started: Promise<void>[] = [];
    try {
      const changed = await this.config.refresh(log);
      const managed = this.config.desired?.organizations.map((o) => o.id) ?? [];
      const owned = managed.filter((org) => this.coordinator.owns(org));
      const sync = changed || trigger === 'startup';
      if (sync) this.health.seen(owned);
      else if (this.status.source.lastFetchError === undefined) this.health.confirmed(owned);
      if (sync && !this.reportConfigProblem(runId, trigger, log))
        for (const org of owned) started.push(this.orgs.trigger(org, { sync: trigger }));
      if (trigger === 'drift') for (const org of owned) started.push(this.orgs.trigger(org, { drift: true }));
    } catch (error) {
      const failure = thrownFailure(error);
      log.error({ ...failureFields(failure), apiUrl: this.parts.apiUrl }, `run failed: ${failure.message}`);
    } finally {
      this.fetching = false;
    }
    // Ready once the first fetch and the syncs it started have ended (not awaited: the next fetch
    // must not wait for a slow organization).
    if (this.firstRun) void Promise.all(started).then(() => (this.ready = true));
    this.firstRun = false;
  }

  /** An invalid config, or none yet: reported once for the revision, nothing is synced. */
  private reportConfigProblem(runId: string, trigger: Trigger, log: Logger): boolean {
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
      return true;
    }
    if (!desired) {
      recordSync({ ...base, result: 'error', message: 'no valid config yet' }, this.parts, log);
      return true;
    }
    return false;
  }

  /** One organization's run: its sync and/or its drift check. */
  private async runOrg(org: string, job: OrgJob): Promise<void> {
    const runId = randomUUID().slice(0, 8);
    const trigger = job.sync ?? 'drift';
    const log = this.logger.child({ run: runId, trigger, org });
    const endTimer = this.parts.metrics.syncDuration.startTimer({ trigger });
    try {
      if (job.sync) await this.sync(org, runId, job.sync, log);
      if (job.drift) await this.driftCheck.run(runId, org, log);
    } catch (error) {
      const failure = thrownFailure(error);
      log.error({ ...failureFields(failure), apiUrl: this.parts.apiUrl }, `run failed: ${failure.message}`);
    } finally {
      endTimer();
    }
  }

  private async sync(org: string, runId: string, trigger: Trigger, log: Logger): Promise<void> {
    // The config and the certificate contents loaded with it, as they are now: a fetch may load
    // newer ones (and rewrite the checkout) while this sync runs.
    const { revision, desired, certificates } = this.config;
    if (!desired?.organizations.some((o) => o.id === org)) return;
    const base = {
      runId,
      trigger,
      startedAt: new Date().toISOString(),
      ...(revision ? { revision: revision.id } : {}),
    };
    try {
      const outcome = await this.pipeline(
        org,
        onlyOrgs(desired, [org]),
        this.opts.mode === 'apply',
        log,
        certificates,
        trigger === 'manual',
      );
      this.record(org, base, outcome, log);
    } catch (thrown) {
      const error = thrownFailure(thrown);
      recordSync({ ...base, result: 'error', message: error.message, error }, this.parts, log, { org });
      this.health.finished(org, 'error');
    }
  }

  /**
   * A pass of the pipeline ended: its plan, what it applied and its report reach the journal,
   * the status and the metrics together, with no await between (organizations run at once).
   */
  private record(
    org: string,
    base: Pick<SyncReport, 'runId' | 'trigger' | 'startedAt' | 'revision'>,
    outcome: SyncOutcome,
    log: Logger,
  ): RunOutcome {
    if (outcome.result !== 'not-owned')
      this.opts.journal?.planned(outcome.run.plan, outcome.run.live, this.config.revision?.id);
    const report = outcomeReport(outcome, this.parts);
    recordSync({ ...base, ...report }, this.parts, log, { org, outcome });
    if (outcome.result !== 'not-owned') this.health.finished(org, report.result);
    return report;
  }

  /**
   * One pass of the sync pipeline (src/pipeline/sync.ts) as the daemon runs it: only the
   * organizations this replica holds; with `expectChecksum`, only the plan the drift check made.
   */
  private pipeline(
    org: string,
    desired: DesiredState,
    apply: boolean,
    log: Logger,
    certificates: ReadonlyMap<string, string> | undefined,
    manual: boolean,
    expectChecksum?: string,
  ): Promise<SyncOutcome> {
    return runSync({
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
      onPlanned: ({ live }) => this.health.read(org, readFailureOf(live, org)),
      // Suspended, or a sync window closed: plan, report, apply nothing (drift is still reported).
      applyBlocked: () =>
        this.controls.applyBlocked(
          org,
          desired.organizations.find((o) => o.id === org),
          manual,
        ),
      applyOptions: {
        logger: log,
        shouldStop: () => this.stopping,
        configRoot: findRepositoryRoot(this.source.configDir),
        certificates,
      },
    });
  }
}

function phaseOf(busy: boolean, stopping: boolean, ready: boolean): DaemonStatus['phase'] {
  if (stopping) return 'stopping';
  if (busy) return 'syncing';
  return ready ? 'idle' : 'starting';
}
