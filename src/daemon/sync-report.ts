import type { ConfigIssue } from '../config/issues.js';
import type { Logger } from '../log/logger.js';
import type { ChangeResult } from '../apply/result.js';
import { applyFailure, failureFields, planFailure } from '../pipeline/failure.js';
import type { SyncOutcome } from '../pipeline/sync.js';
import { resourceSummary } from '../plan/format-value.js';
import type { PlanSummary } from '../plan/types.js';
import { syncObservation } from './notify.js';
import type { DaemonParts, RunOutcome, SyncReport } from './types.js';

/**
 * A finished sync: the status, the run history, the metrics and the log learn its result, and,
 * for an organization's run, the notification providers (not awaited: a slow webhook never
 * holds a run).
 */
export function recordSync(
  r: SyncReport,
  parts: DaemonParts,
  log: Logger,
  run?: { org: string; outcome?: SyncOutcome },
): void {
  r.finishedAt = new Date().toISOString();
  const observation = run && syncObservation(run.org, r, parts.status, run.outcome);
  if (observation) void parts.notifier?.observe(observation);
  parts.status.lastSync = r;
  void parts.opts.journal?.synced(r);
  parts.metrics.syncTotal.inc({ result: r.result });
  if (r.result === 'applied' || r.result === 'planned' || r.result === 'no-changes')
    parts.metrics.lastSuccess.set(Date.now() / 1000);
  const fields = {
    result: r.result,
    revision: r.revision,
    summary: r.summary,
    applied: r.applied,
    failed: r.failedChanges,
  };
  if (r.error) {
    // An operator reads why without opening /status: the code, the endpoint or file, the reason.
    const api = r.error.endpoint && parts.apiUrl ? { apiUrl: parts.apiUrl } : {};
    log.error({ ...fields, ...failureFields(r.error), ...api }, `sync failed: ${r.error.message}`);
  } else if (r.result === 'refused')
    log.warn({ ...fields, reason: r.message }, `sync refused: ${r.message ?? ''}`);
  else log.info(fields, 'sync finished');
}

/** The errors of an invalid config, as a sync report carries them. */
export function reportedIssues(issues: readonly ConfigIssue[]): NonNullable<SyncReport['issues']> {
  return issues
    .filter((i) => i.severity === 'error')
    .map(({ file, line, column, path, message, code }) => ({ file, line, column, path, message, code }));
}

/** What a pass of the sync pipeline adds to the run's report; what it applied reaches history and metrics. */
export function outcomeReport(outcome: SyncOutcome, parts: DaemonParts): RunOutcome {
  if (outcome.result === 'not-owned')
    return {
      result: 'no-changes',
      message: `replica ${parts.coordinator.status().replica} owns none of the configured organizations now`,
    };
  const summary = outcome.run.plan.summary;
  if (outcome.applied) {
    parts.opts.journal?.applied(outcome.applied);
    for (const [kind, counts] of appliedByKind(outcome.applied.results))
      for (const action of ACTIONS)
        if (counts[action] > 0) parts.metrics.changesApplied.inc({ kind, action }, counts[action]);
    const error = outcome.result === 'applied' ? undefined : applyFailure(outcome.applied);
    if (outcome.verified && !outcome.verified.converged) parts.metrics.unconvergedRuns.inc();
    return {
      result: outcome.result === 'applied' ? 'applied' : 'failed',
      summary,
      applied: outcome.applied.applied,
      failedChanges: outcome.applied.failed,
      ...(error ? { message: error.message, error } : {}),
      ...(outcome.verified ? { verify: outcome.verified } : {}),
    };
  }
  switch (outcome.result) {
    case 'skipped':
      // Planned, not applied: what is pending stays pending (a suspension, a closed sync window).
      return {
        result: 'planned',
        summary,
        ...(outcome.message !== undefined ? { message: outcome.message } : {}),
      };
    case 'moved':
      return {
        result: 'refused',
        summary,
        message: 'live state changed since the drift check; not applied',
      };
    case 'cancelled':
      return { result: 'refused', summary, message: 'cancelled' };
    case 'failed': {
      const error = planFailure(outcome.run.plan, outcome.run.live) ?? {
        code: 'internal',
        message: outcome.message ?? 'the sync failed',
      };
      return { result: 'failed', summary, message: error.message, error };
    }
    default:
      return {
        result: outcome.result,
        summary,
        ...(outcome.message !== undefined ? { message: outcome.message } : {}),
      };
  }
}

const ACTIONS = ['create', 'update', 'delete', 'move'] as const;

/** What apply changed, by kind, counted by the one summary function (resourceSummary). */
export function appliedByKind(results: readonly ChangeResult[]): Map<string, PlanSummary> {
  const byKind = new Map<string, ChangeResult[]>();
  for (const r of results) if (r.status === 'applied') byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r]);
  return new Map([...byKind].map(([kind, rs]) => [kind, resourceSummary(rs)]));
}
