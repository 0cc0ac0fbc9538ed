import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { HttpObserver } from '../api/http-options.js';
import type { CoordinationObserver } from '../coord/types.js';
import { collectProcessMetrics } from './process-metrics.js';

/** Owned organizations and when each was last known in sync (set by the daemon's OrgHealth). */
type OrgsInSync = { read: () => [string, number][] };
/** Configured organizations, suspended or not, apply blocked or not (set by the daemon's OrgControls). */
type OrgControls = { read: () => { org: string; suspended: boolean; blocked: boolean }[] };

/** The daemon's Prometheus metrics, in their own registry; `stop` ends the process metrics' monitors. */
export function createMetrics() {
  const registry = new Registry();
  const orgsInSync: OrgsInSync = { read: () => [] };
  const orgControls: OrgControls = { read: () => [] };
  const stop = collectProcessMetrics(registry);
  // Registered in this order: /metrics lists them so.
  const m = {
    registry,
    ...runMetrics(registry),
    ...apiMetrics(registry),
    ...convergenceMetrics(registry),
    orgsInSync,
    ...orgMetrics(registry, orgsInSync),
    ...controlMetrics(registry, orgControls),
    orgControls,
    ...sourceMetrics(registry),
  };
  const observer: HttpObserver = {
    request: (method, route, status) => m.apiRequests.inc({ method, route, status: String(status) }),
    retry: (_method, _route, reason) => m.apiRetries.inc({ reason }),
    paused: (ms) => m.rateLimitPaused.inc(ms / 1000),
    budget: (remaining) => {
      if (remaining !== null) m.rateLimitRemaining.set(remaining);
    },
  };
  const coordination: CoordinationObserver = {
    owned: (n) => m.orgsOwned.set(n),
    unowned: (n) => m.orgsUnowned.set(n),
    renewFailed: () => m.leaseRenewFailures.inc(),
  };
  return { ...m, observer, coordination, stop };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Sync runs, the changes they applied, and drift checks. */
function runMetrics(registry: Registry) {
  return {
    syncDuration: new Histogram({
      name: 'docsync_sync_duration_seconds',
      help: 'Duration of sync runs',
      labelNames: ['trigger'],
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    syncTotal: new Counter({
      name: 'docsync_sync_total',
      help: 'Sync runs by result',
      labelNames: ['result'],
      registers: [registry],
    }),
    changesApplied: new Counter({
      name: 'docsync_changes_applied_total',
      help: 'Resources changed by apply, counted as the plan counts them (a creation and its set-after-creation update are one)',
      labelNames: ['kind', 'action'],
      registers: [registry],
    }),
    driftChanges: new Gauge({
      name: 'docsync_drift_changes',
      help: 'Changes needed to converge at the last drift check',
      registers: [registry],
    }),
    driftErrors: new Counter({
      name: 'docsync_drift_errors_total',
      help: 'Drift checks that could not read live state (the result is unknown, not "in sync")',
      registers: [registry],
    }),
    lastDriftSuccess: new Gauge({
      name: 'docsync_last_drift_success_timestamp_seconds',
      help: 'Time of the last drift check that could read live state',
      registers: [registry],
    }),
  };
}

/** API requests, retries and the rate limit. */
function apiMetrics(registry: Registry) {
  return {
    apiRequests: new Counter({
      name: 'docsync_api_requests_total',
      help: 'API requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    apiRetries: new Counter({
      name: 'docsync_api_retries_total',
      help: 'API request retries by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    rateLimitPaused: new Counter({
      name: 'docsync_rate_limit_paused_seconds_total',
      help: 'Time spent waiting for the rate limit window',
      registers: [registry],
    }),
    rateLimitRemaining: new Gauge({
      name: 'docsync_rate_limit_remaining',
      help: 'Remaining API rate budget',
      registers: [registry],
    }),
  };
}

/** The last successful sync, and how long a change waits to be applied. */
function convergenceMetrics(registry: Registry) {
  return {
    lastSuccess: new Gauge({
      name: 'docsync_last_success_timestamp_seconds',
      help: 'Time of the last successful sync',
      registers: [registry],
    }),
    changeToApply: new Histogram({
      name: 'docsync_change_to_apply_seconds',
      help: 'From a change seen (a new revision fetched, drift detected, an organization taken over) to its organization applied',
      buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600],
      registers: [registry],
    }),
  };
}

/** Owned organizations, their ownership through etcd, and applies that did not converge. */
function orgMetrics(registry: Registry, orgsInSync: OrgsInSync) {
  return {
    orgLastSuccess: new Gauge({
      name: 'docsync_org_last_success_timestamp_seconds',
      help: 'Per owned organization: when it was last known in sync with the source (a successful sync, or a fetch with nothing new and nothing pending), or when this replica took it, if later',
      labelNames: ['org'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [org, at] of orgsInSync.read()) this.set({ org }, at);
      },
    }),
    orgsOwned: new Gauge({
      name: 'docsync_orgs_owned',
      help: 'Organizations this replica owns (may write)',
      registers: [registry],
    }),
    orgsUnowned: new Gauge({
      name: 'docsync_orgs_unowned',
      help: 'Configured organizations without an owner, as this replica last saw them (etcd)',
      registers: [registry],
    }),
    leaseRenewFailures: new Counter({
      name: 'docsync_lease_renew_failures_total',
      help: 'Failed attempts to take or renew the etcd lease, and leases found expired',
      registers: [registry],
    }),
    unconvergedRuns: new Counter({
      name: 'docsync_unconverged_runs_total',
      help: 'Applies whose re-read of what they changed still found differences (or could not re-read)',
      registers: [registry],
    }),
  };
}

/** Per configured organization: suspended, apply blocked. */
function controlMetrics(registry: Registry, orgControls: OrgControls) {
  return {
    orgSuspended: new Gauge({
      name: 'docsync_org_suspended',
      help: 'Per configured organization: 1 while suspended (through the API or suspended: true in its config), else 0',
      labelNames: ['org'],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of orgControls.read()) this.set({ org: c.org }, c.suspended ? 1 : 0);
      },
    }),
    orgApplyBlocked: new Gauge({
      name: 'docsync_org_apply_blocked',
      help: "Per configured organization: 1 while the daemon's automatic apply is blocked (suspended, or by policy.syncWindows), else 0",
      labelNames: ['org'],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of orgControls.read()) this.set({ org: c.org }, c.blocked ? 1 : 0);
      },
    }),
  };
}

/** The config revision in effect. */
function sourceMetrics(registry: Registry) {
  return {
    sourceInfo: new Gauge({
      name: 'docsync_source_info',
      help: 'The config revision in effect',
      labelNames: ['revision'],
      registers: [registry],
    }),
  };
}
