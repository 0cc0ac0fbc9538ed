import type { ApiClient } from '../api/client.js';
import type { CoordinationStatus, Coordinator } from '../coord/types.js';
import type { ConfigIssue } from '../config/issues.js';
import type { Plan } from '../plan/types.js';
import type { Verification } from '../pipeline/verify.js';
import type { RunFailure } from '../pipeline/failure.js';
import type { Notifier } from '../notify/notifier.js';
import type { NotificationProvider } from '../notify/provider.js';
import type { LiveRead } from './health.js';
import type { Metrics } from './metrics.js';
import type { OrgControls, OrgControlStatus } from './org-controls.js';
import type { RunJournal } from './runs/journal.js';

export type DaemonMode = 'apply' | 'plan';
/** `manual`: `POST /api/orgs/{org}/sync` (a sync window's manualSync lets it through). */
export type Trigger = 'startup' | 'poll' | 'webhook' | 'watch' | 'drift' | 'ownership' | 'manual';

export type DaemonOptions = {
  mode: DaemonMode;
  intervalMs: number;
  driftCron?: string;
  selfHeal: boolean;
  allowDeletes: number;
  stateDir: string;
  driftReport?: string;
  /** The `--notify-url` shorthand: one Slack provider with the drift events. */
  notifyUrl?: string;
  /** The providers of `--notifications` (src/notify/settings.ts), secrets read. */
  notifications?: NotificationProvider[];
  /** Notify again about unchanged drift after this long. */
  reminderMs: number;
  stopTimeoutMs: number;
  /** How many organizations sync at once (each in its own queue; default 4). */
  orgConcurrency?: number;
  /** Run history and the latest plan, for `/api/runs` and the status page. */
  journal?: RunJournal;
  /**
   * Who may write which organization (decision 21). Default: the lock files in `stateDir`, and
   * the daemon holds the state folder's daemon lock from `start` to `stop`.
   */
  coordinator?: Coordinator;
  /** Suspensions and sync windows (default: suspensions in memory only). */
  controls?: OrgControls;
  /**
   * The environment config files read `${VAR}` from (default: the process's at each load). The
   * command passes its own at start: a daemon run inside another program keeps what it started with.
   */
  env?: NodeJS.ProcessEnv;
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
  /** Why the run failed: the code, the endpoint or file, and `message` again (src/pipeline/failure.ts). */
  error?: RunFailure;
  issues?: Pick<ConfigIssue, 'file' | 'line' | 'column' | 'path' | 'message' | 'code'>[];
  /** After an apply that changed something: converged, or the differences that remain (verified apply). */
  verify?: Verification;
};

/** What one pass of the sync pipeline adds to a run's report. */
export type RunOutcome = Pick<
  SyncReport,
  'result' | 'summary' | 'applied' | 'failedChanges' | 'message' | 'error' | 'verify'
>;

export type DriftReport = {
  at: string;
  drifted: boolean;
  changes: number;
  checksum: string;
  summary: Plan['summary'];
  corrected: boolean;
  notified: boolean;
  error?: string;
  /** Who changed the drifted resources, from the audit log: `ann@acme.com (2), unknown (1)`. */
  changedBy?: string;
};

/** What `/status` shows. */
export type DaemonStatus = {
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
  /**
   * The owned organizations' last attempts to read live state (sync or drift), kept per
   * organization: the most recent failure among them, else the most recent read. `/readyz` fails
   * while any owned organization's last read failed.
   */
  readonly liveRead?: LiveRead | null;
  /** Per organization: when it last synced, was last known in sync, and what is pending (issue 34). */
  readonly organizations?: Record<string, OrgSyncStatus>;
  /** Which organizations this replica writes, among which members (decision 21). */
  readonly coordination?: CoordinationStatus;
};

/** What the daemon's parts share: its settings, its status, and where they report. */
export type DaemonParts = {
  readonly opts: DaemonOptions;
  readonly status: DaemonStatus;
  readonly metrics: Metrics;
  readonly coordinator: Coordinator;
  /** The API's base URL, named in every log line about a failed call. */
  readonly apiUrl?: string;
  /** Tells the notification providers what runs found (decision 29). */
  readonly notifier?: Notifier;
};

/** One organization's sync health, as `/status` shows it (`organizations`). */
export type OrgSyncStatus = {
  /** This replica owns it now (may write it). */
  owned: boolean;
  /** The last sync of it that succeeded (applied, planned, or nothing to do). */
  lastSuccessAt?: string;
  /**
   * The last moment it was known to match the source: a successful sync, or a fetch that found
   * nothing new while nothing was pending for it. What the alert example watches.
   */
  inSyncAt?: string;
  lastSyncAt?: string;
  lastResult?: SyncReport['result'];
  /** A change was seen (a new revision, drift, ownership gained) and not yet applied, since then. */
  pendingSince?: string;
  /** Its last attempt to read live state (a sync or a drift check). */
  liveRead?: LiveRead;
  /** Suspended or not, and what its sync windows say now (configured organizations). */
  controls?: OrgControlStatus;
};
