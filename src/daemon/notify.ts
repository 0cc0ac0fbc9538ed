import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../log/logger.js';
import type { Observation } from '../notify/events.js';
import { Notifier } from '../notify/notifier.js';
import { notifyUrlProvider } from '../notify/settings.js';
import type { SyncOutcome } from '../pipeline/sync.js';
import { renderJson, renderMarkdown, type Plan } from '../plan/index.js';
import { redact } from '../secrets/registry.js';
import type { DaemonOptions, DaemonStatus, SyncReport } from './types.js';

/** Write the drift report atomically: markdown, or JSON when the file name ends in .json. */
export async function writeDriftReport(file: string, plan: Plan, title: string): Promise<void> {
  const text = file.endsWith('.json') ? renderJson(plan) : renderMarkdown(plan, { title });
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, redact(text));
  await rename(tmp, file);
}

/**
 * The daemon's notifier: the providers of `--notifications`, and `--notify-url` as the shorthand
 * for one Slack provider with the drift events (decision 29).
 */
export function daemonNotifier(opts: DaemonOptions, logger: Logger): Notifier {
  const providers = [
    ...(opts.notifications ?? []),
    ...(opts.notifyUrl ? [notifyUrlProvider(opts.notifyUrl)] : []),
  ];
  return new Notifier(providers, { logger, reminderMs: opts.reminderMs });
}

/** The revision as a commit, when the source is a git repository (a folder's revision is a digest). */
export function commitOf(status: DaemonStatus, revision: string | undefined): { commit?: string } {
  return status.source['type'] === 'git' && revision ? { commit: revision } : {};
}

/**
 * What a recorded sync tells the notifier about its organization. A refusal that is no guard's
 * (live state moved since the drift check, a cancelled run) and a replica owning nothing tell
 * nothing; nor does an invalid config, which belongs to no organization.
 */
export function syncObservation(
  org: string,
  r: SyncReport,
  status: DaemonStatus,
  outcome?: SyncOutcome,
): Observation | undefined {
  if (outcome?.result === 'not-owned') return undefined;
  const base = { org, ...commitOf(status, r.revision), ...(r.summary ? { counts: r.summary } : {}) };
  switch (r.result) {
    case 'applied':
      return { ...base, kind: 'applied', runId: r.runId, applied: r.applied ?? 0 };
    case 'failed':
    case 'error':
      return {
        ...base,
        kind: 'apply-failed',
        error: r.message ?? 'the sync failed',
        code: r.error?.code ?? 'internal',
        ...(r.applied !== undefined ? { applied: r.applied } : {}),
        ...(r.failedChanges !== undefined ? { failed: r.failedChanges } : {}),
      };
    case 'refused':
      return outcome?.result === 'refused'
        ? { ...base, kind: 'refused', reason: r.message ?? 'refused' }
        : undefined;
    case 'no-changes':
      return { org, ...commitOf(status, r.revision), kind: 'in-sync' };
    case 'planned':
      return { org, ...commitOf(status, r.revision), kind: 'planned' };
    default:
      return undefined;
  }
}
