import { readFile } from 'node:fs/promises';
import { acquireLock } from '../apply/lock.js';
import { DocsyncError } from '../errors.js';
import { renderResultTable } from '../apply/result.js';
import { applyPlan } from '../apply/run.js';
import { findRepositoryRoot } from '../secrets/indirect.js';
import type { DesiredState } from '../model/index.js';
import { checkSafety } from '../plan/safety.js';
import { makePlan } from '../pipeline/plan-run.js';
import { makeApi, makeLogger, type CommonOptions } from './context.js';
import { confirm } from './confirm.js';
import { err, out, progressLine } from './output.js';
import { loadOrReport, render, type Format } from './plan.js';

export type ApplyCommandOptions = CommonOptions & {
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
  let desired: DesiredState | null;
  let savedChecksum: string | undefined;
  if (opts.plan) {
    const saved = await readSavedPlan(opts.plan);
    desired = saved.desired;
    savedChecksum = saved.checksum;
  } else desired = await loadOrReport(opts.config);
  if (!desired) return 1;

  const api = makeApi(opts);
  const releases: (() => Promise<void>)[] = [];
  try {
    for (const org of desired.organizations)
      releases.push(
        await acquireLock(opts.stateDir, org.id, 'docsync apply', opts.lockWait * 1000, (m) => err(m)),
      );
    const { plan } = await makePlan(api, desired);
    if (savedChecksum !== undefined && plan.checksum !== savedChecksum) {
      err('error: live state changed since this plan was made; plan again');
      return 1;
    }
    if (plan.errors.length > 0) {
      out(render(plan, opts.format));
      err('error: the plan has errors; nothing was applied');
      return 1;
    }
    const refusals = checkSafety(plan, opts.allowDeletes);
    if (refusals.length > 0) {
      out(render(plan, opts.format));
      for (const r of refusals) err(`refused: ${r.message}`);
      return 1;
    }
    if (plan.changes.length === 0) {
      out(render(plan, opts.format));
      return 0;
    }
    if (!opts.yes) {
      if (!process.stdin.isTTY) {
        out(render(plan, opts.format));
        err('error: refusing to apply without confirmation: not a terminal; pass --yes');
        return 1;
      }
      out(render(plan, opts.format));
      if (!(await confirm(`Apply these ${plan.changes.length} changes?`))) {
        err('Apply cancelled.');
        return 1;
      }
    } else out(render(plan, opts.format));

    const progress = progressLine();
    const t0 = Date.now();
    const run = logger.child({ run: plan.checksum.slice(0, 12) });
    const result = await applyPlan(plan, api, {
      logger: run,
      configRoot: findRepositoryRoot(opts.config),
      onProgress: (p) => {
        const rate = p.done > 0 ? (Date.now() - t0) / p.done : 0;
        const eta = Math.round(((p.total - p.done) * rate) / 1000);
        progress.update(
          `applying: ${p.done}/${p.total} changes, ${p.failed} failed, rate budget ${api.http.budget.remaining ?? '?'}, ~${eta}s to go`,
        );
      },
    });
    progress.done();
    out(renderResultTable(result));
    return result.ok ? 0 : 1;
  } finally {
    for (const release of releases) await release();
    await api.close();
  }
}
