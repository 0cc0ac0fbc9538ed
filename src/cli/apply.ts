import { readFile } from 'node:fs/promises';
import { DocsyncError } from '../errors.js';
import { renderResultTable } from '../apply/result.js';
import type { ApplyProgress } from '../apply/run.js';
import type { Plan } from '../plan/types.js';
import { findRepositoryRoot } from '../secrets/indirect.js';
import type { DesiredState } from '../reconcile/index.js';
import type { Coordinator } from '../coord/types.js';
import { runSync } from '../pipeline/sync.js';
import { refusalLine } from '../plan/safety.js';
import { manualApplyBlocked } from '../policy/sync-windows.js';
import { verificationLine } from '../pipeline/verify.js';
import { makeCliCoordinator, type CoordinationOptions } from './coordination.js';
import { makeApi, makeLogger, type CommonOptions } from './context.js';
import { targeted, type ControlOptions } from './controls.js';
import { confirm } from './confirm.js';
import { err, out, progressLine } from './output.js';
import { logFailure, loadOrReport, render, type Format } from './plan.js';
import { applyFailure, planFailure } from '../pipeline/failure.js';

export type ApplyCommandOptions = CommonOptions &
  CoordinationOptions &
  ControlOptions & {
    yes?: boolean;
    allowDeletes: number;
    format: Format;
    plan?: string;
    lockWait: number;
  };

/** A saved plan file (`plan --out`): the desired state it was made from, and its checksum. */
async function readSavedPlan(file: string): Promise<{ desired: DesiredState; checksum: string }> {
  let doc: { formatVersion?: unknown; desired?: DesiredState; checksum?: unknown };
  try {
    doc = JSON.parse(await readFile(file, 'utf8')) as typeof doc;
  } catch (error) {
    throw new DocsyncError('invalid-plan-file', `cannot read plan file ${file}: ${(error as Error).message}`);
  }
  if (doc.formatVersion !== 1 || typeof doc.checksum !== 'string' || !doc.desired)
    throw new DocsyncError(
      'invalid-plan-file',
      `${file} is not a saved docsync plan (write one with: docsync plan --out FILE)`,
    );
  return { desired: doc.desired, checksum: doc.checksum };
}

/** `docsync apply`: plan under the organizations' locks, confirm, execute, print the result table. */
export async function applyCommand(opts: ApplyCommandOptions): Promise<number> {
  const logger = makeLogger(opts, 'apply');
  const toApply = await desiredToApply(opts);
  if (!toApply) return 1;
  const { savedChecksum } = toApply;
  const desired = targeted(toApply.desired, opts.targets);

  const api = makeApi(opts);
  let coordinator: Coordinator | undefined;
  const progress = progressLine();
  try {
    const coord = (coordinator = await makeCliCoordinator(opts, logger));
    const outcome = await runSync({
      api,
      desired,
      apply: true,
      allowDeletes: opts.allowDeletes,
      allowUpdates: opts.allowUpdates ?? 0,
      hold: (orgs) => coord.hold(orgs, opts.lockWait * 1000),
      ...(savedChecksum !== undefined ? { expectChecksum: savedChecksum } : {}),
      // A person applying is a manual sync: a closed sync window stops it unless its manualSync says otherwise.
      applyBlocked: (orgs) => manualApplyBlocked(desired.organizations, orgs, Date.now()),
      approve: (plan) => approve(plan, opts),
      applyOptions: {
        logger: logger.child({ run: 'apply' }),
        configRoot: findRepositoryRoot(opts.config),
        onProgress: showProgress(api, progress),
      },
    });
    return report(outcome, opts, logger, progress);
  } finally {
    // Also when the sync threw: no redraw waiting for its interval comes after the error's text.
    progress.done();
    await coordinator?.stop();
    await api.close();
  }
}

/** The desired state of `--plan FILE` (with its checksum) or of the config; null when the config has errors (reported). */
async function desiredToApply(
  opts: ApplyCommandOptions,
): Promise<{ desired: DesiredState; savedChecksum?: string } | null> {
  if (!opts.plan) {
    const desired = await loadOrReport(opts.config);
    return desired ? { desired } : null;
  }
  if (opts.targets)
    throw new DocsyncError('invalid-option', '--target goes with plan --out: a saved plan keeps its targets');
  const saved = await readSavedPlan(opts.plan);
  return { desired: saved.desired, savedChecksum: saved.checksum };
}

/** Print the plan, then ask (or take --yes): never applies without a confirmation. */
async function approve(plan: Plan, opts: ApplyCommandOptions): Promise<boolean> {
  out(render(plan, opts.format));
  if (opts.yes) return true;
  if (!process.stdin.isTTY) {
    err('error: refusing to apply without confirmation: not a terminal; pass --yes');
    return false;
  }
  if (await confirm(`Apply these ${plan.changes.length} changes?`)) return true;
  err('Apply cancelled.');
  return false;
}

/** The progress line: changes done, failed, the rate budget and the time to go. */
function showProgress(api: ReturnType<typeof makeApi>, progress: ReturnType<typeof progressLine>) {
  const t0 = Date.now();
  return (p: ApplyProgress) => {
    progress.update(() => {
      const rate = p.done > 0 ? (Date.now() - t0) / p.done : 0;
      const eta = Math.round(((p.total - p.done) * rate) / 1000);
      return `applying: ${p.done}/${p.total} changes, ${p.failed} failed, rate budget ${api.http.budget.remaining ?? '?'}, ~${eta}s to go`;
    });
  };
}

/** What the sync ended with, printed; the exit code. */
function report(
  outcome: Awaited<ReturnType<typeof runSync>>,
  opts: ApplyCommandOptions,
  logger: ReturnType<typeof makeLogger>,
  progress: ReturnType<typeof progressLine>,
): number {
  switch (outcome.result) {
    case 'not-owned':
      return 0;
    case 'moved':
      err('error: live state changed since this plan was made; plan again');
      return 1;
    case 'cancelled':
      return 1;
    case 'refused':
      out(render(outcome.run.plan, opts.format));
      for (const r of outcome.refusals ?? []) err(`refused: ${refusalLine(r)}`);
      return 1;
    case 'skipped':
      out(render(outcome.run.plan, opts.format));
      err(`refused: ${outcome.message ?? 'apply skipped'}`);
      return 1;
    case 'no-changes':
    case 'planned':
      out(render(outcome.run.plan, opts.format));
      return 0;
    default:
      if (!outcome.applied) {
        out(render(outcome.run.plan, opts.format));
        logFailure(logger, 'apply', planFailure(outcome.run.plan, outcome.run.live), opts.apiUrl);
        err('error: the plan has errors; nothing was applied');
        return 1;
      }
      progress.done();
      out(renderResultTable(outcome.applied));
      if (outcome.verified)
        out(
          opts.format === 'json'
            ? JSON.stringify({ verify: outcome.verified })
            : verificationLine(outcome.verified),
        );
      logFailure(logger, 'apply', applyFailure(outcome.applied), opts.apiUrl);
      return outcome.applied.ok ? 0 : 1;
  }
}
