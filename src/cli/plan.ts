import { writeFile } from 'node:fs/promises';
import { apiBase } from '../api/api-url.js';
import { redact } from '../secrets/registry.js';
import { formatIssue } from '../config/issues.js';
import { loadConfig } from '../config/load.js';
import type { DesiredState, LiveState } from '../reconcile/index.js';
import { extendPlan, renderJson, renderMarkdown, renderText, type Plan } from '../plan/index.js';
import { failureFields, planFailure, type RunFailure } from '../pipeline/failure.js';
import { makePlan, type PlanRun } from '../pipeline/plan-run.js';
import { readAttributions } from '../live/audit.js';
import { mergeAttributions } from '../plan/attribution.js';
import { manualApplyBlocked } from '../policy/sync-windows.js';
import type { Logger } from '../log/logger.js';
import { makeApi, makeLogger, type CommonOptions } from './context.js';
import { targeted, type ControlOptions } from './controls.js';
import { err, out, progressLine, useColor } from './output.js';

export type Format = 'text' | 'json' | 'markdown';

export function render(
  plan: Plan,
  format: Format,
  title?: string,
  desired?: DesiredState,
  live?: LiveState,
): string {
  if (format === 'json') return renderJson(plan, desired);
  if (format === 'markdown')
    return renderMarkdown(plan, { ...(title ? { title } : {}), ...(live ? { live } : {}) });
  return renderText(plan, { color: useColor(), ...(title ? { title } : {}) });
}

/** Load the config or print its problems; null when invalid. */
export async function loadOrReport(dir: string): Promise<DesiredState | null> {
  const result = await loadConfig(dir);
  for (const issue of result.issues) err(formatIssue(issue));
  return result.desired;
}

/** A failed command's error-level log line: the code, the endpoint or file, the reason (stderr). */
export function logFailure(
  logger: Logger,
  command: string,
  failure: RunFailure | undefined,
  apiUrl?: string,
): void {
  if (!failure) return;
  logger.error(
    {
      command,
      ...failureFields(failure),
      ...(failure.endpoint && apiUrl ? { apiUrl: apiBase(apiUrl) } : {}),
    },
    `${command} failed: ${failure.message}`,
  );
}

/** Read live state and plan, with a progress line on a TTY. */
export async function planWithProgress(opts: CommonOptions, desired: DesiredState): Promise<PlanRun> {
  const progress = progressLine();
  const api = makeApi(opts);
  try {
    return await makePlan(api, desired, (p) =>
      progress.update(
        () =>
          `reading live state: ${p.listsDone}/${p.listsStarted} lists, rate budget ${api.http.budget.remaining ?? '?'}`,
      ),
    );
  } finally {
    progress.done();
    await api.close();
  }
}

/** `docsync plan`: read live state, print the ordered changes; never writes. */
export async function planCommand(
  opts: CommonOptions & ControlOptions & { format: Format; out?: string; detailedExitcode?: boolean },
): Promise<number> {
  const logger = makeLogger(opts, 'plan');
  const loaded = await loadOrReport(opts.config);
  if (!loaded) return 1;
  const desired = targeted(loaded, opts.targets);
  const { plan, live } = await planWithProgress(opts, desired);
  // Asked first: the line's checksum is hashed when read (src/plan/build.ts).
  if (logger.isLevelEnabled('info'))
    logger.info(
      { organizations: plan.organizations, summary: plan.summary, checksum: plan.checksum },
      'plan computed',
    );
  out(render(plan, opts.format, undefined, undefined, live));
  if (opts.out) await writeFile(opts.out, redact(renderJson(plan, desired)));
  // Sync windows are not part of the plan (they depend on the clock): a note, on stderr.
  const closed =
    plan.changes.length > 0
      ? manualApplyBlocked(desired.organizations, plan.organizations, Date.now())
      : undefined;
  if (closed !== undefined) err(`note: docsync apply would be refused now: apply skipped: ${closed}`);
  logFailure(logger, 'plan', planFailure(plan, live), opts.apiUrl);
  if (plan.errors.length > 0) return 1;
  // A plan that apply would refuse is not an approvable plan: 1, as an error.
  if (opts.detailedExitcode && plan.refusals.length > 0) return 1;
  if (opts.detailedExitcode && plan.changes.length > 0) return 2;
  return 0;
}

/** The drift report names who changed each drifted resource (the audit log, when the API has one). */
async function withAttributions(opts: CommonOptions, plan: Plan): Promise<Plan> {
  const api = makeApi(opts);
  try {
    const byOrg = await Promise.all(
      plan.organizations.map((org) =>
        readAttributions(
          api,
          org,
          plan.changes.filter((c) => c.address.startsWith(`${org}/`)),
        ),
      ),
    );
    return extendPlan(plan, { attributions: mergeAttributions(byOrg) });
  } finally {
    await api.close();
  }
}

/** `docsync drift`: the plan framed as a drift report. 0 in sync, 2 drift, 1 error. */
export async function driftCommand(
  opts: CommonOptions & ControlOptions & { format: Format; out?: string },
): Promise<number> {
  const logger = makeLogger(opts, 'drift');
  const loaded = await loadOrReport(opts.config);
  if (!loaded) return 1;
  const desired = targeted(loaded, opts.targets);
  const run = await planWithProgress(opts, desired);
  const { live } = run;
  const plan = run.plan.changes.length > 0 ? await withAttributions(opts, run.plan) : run.plan;
  const drifted = plan.changes.length > 0;
  const title = drifted
    ? `docsync drift report: live state differs from the configuration (${plan.changes.length} change(s) to converge)`
    : 'docsync drift report: in sync';
  const text = render(plan, opts.format, title, undefined, live);
  out(text);
  if (opts.out) await writeFile(opts.out, redact(text));
  logFailure(logger, 'drift', planFailure(plan, live), opts.apiUrl);
  if (plan.errors.length > 0) return 1;
  return drifted ? 2 : 0;
}
