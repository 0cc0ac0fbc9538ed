import type { Logger } from 'pino';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Change } from '../reconcile/index.js';
import type { Plan } from '../plan/types.js';
import { withWriteGate, type WriteGate } from '../api/write-gate.js';
import { findCreated, isCreation } from './adopt.js';
import { settleCreation, type SettleWatch } from './settle.js';
import { preloadCertificates } from './certificates.js';
import { executeOp, type OpOutput } from './execute-op.js';
import type { Produced } from './resolve.js';
import type { ApplyResult, ChangeResult } from './result.js';

export type ApplyProgress = { done: number; total: number; failed: number };

export type ApplyOptions = {
  logger?: Logger;
  onProgress?: (p: ApplyProgress) => void;
  /** Checked before each change starts: when true, no new change starts (graceful stop). */
  shouldStop?: () => boolean;
  /** How often an ambiguous creation is sent again when adoption finds nothing. */
  creationAttempts?: number;
  /** Certificate files must lie inside this folder (the config repository); default: the working directory's. */
  configRoot?: string;
  /**
   * Certificate contents read with the config the plan was made from, by hash (the daemon's
   * `LoadResult.certificates`): sent without reading the files again.
   */
  certificates?: ReadonlyMap<string, string> | undefined;
  /**
   * The write gate of an organization (its ownership, decision 21): a change starts only while
   * its organization's gate is open, and its writes pass the gate. None: writes are not gated.
   */
  gateFor?: (org: string) => WriteGate | undefined;
};

/** Deleting something already gone is success: the desired state holds. */
function alreadyGone(change: Change, error: unknown): boolean {
  return change.action === 'delete' && error instanceof ApiError && error.code === 'not-found';
}

/** The organization a change writes to (every address starts with it). */
function changeOrg(change: Change): string {
  return 'org' in change.op ? change.op.org : change.address.slice(0, change.address.indexOf('/'));
}

async function runOne(
  api: ApiClient,
  change: Change,
  produced: Produced,
  attempts: number,
  watch: SettleWatch,
): Promise<{ output: OpOutput; adopted: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { output: await executeOp(api, change.op, produced), adopted: false };
    } catch (error) {
      if (alreadyGone(change, error)) return { output: {}, adopted: false };
      const ambiguous = error instanceof ApiError && (error.ambiguous || error.code === 'conflict');
      if (!isCreation(change.op) || !ambiguous) throw error;
      // A conflict: it exists now. Otherwise the request may still land: wait for it (src/apply/settle.ts).
      const found =
        error.code === 'conflict'
          ? await findCreated(api, change.op, produced)
          : await settleCreation(api, change.op, produced, error, watch);
      if (found) return { output: found, adopted: true };
      if (attempt >= attempts || error.code === 'conflict') throw error;
    }
  }
}

/** One apply in progress: what each change produced and ended as, and what waits on what. */
type ApplyRun = {
  plan: Plan;
  api: ApiClient;
  options: ApplyOptions;
  produced: Produced;
  results: Map<string, ChangeResult>;
  byId: Map<string, Change>;
  /** Per change, how many of its dependencies have not succeeded yet. */
  waiting: Map<string, number>;
  dependents: Map<string, string[]>;
  attempts: number;
  failed: number;
  running: number;
  /** Ends the wait for the plan's changes. */
  resolveAll: () => void;
};

/**
 * Execute a plan: each change starts once its dependencies succeeded (the client's queue bounds
 * concurrency); a failed change marks its dependents skipped while independent changes go on.
 */
export async function applyPlan(
  plan: Plan,
  api: ApiClient,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const started = Date.now();
  await preloadCertificates(plan.changes, options.configRoot, options.certificates);
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const waiting = new Map(plan.changes.map((c) => [c.id, c.dependsOn.filter((d) => byId.has(d)).length]));
  const dependents = new Map<string, string[]>();
  for (const c of plan.changes)
    for (const d of c.dependsOn) {
      const list = dependents.get(d);
      if (list) list.push(c.id);
      else dependents.set(d, [c.id]);
    }
  const run: ApplyRun = {
    plan,
    api,
    options,
    produced: new Map(),
    results: new Map(),
    byId,
    waiting,
    dependents,
    attempts: options.creationAttempts ?? 3,
    failed: 0,
    running: 0,
    resolveAll: () => {},
  };
  await new Promise<void>((resolveAll) => {
    run.resolveAll = resolveAll;
    for (const c of plan.changes) if (waiting.get(c.id) === 0) start(run, c);
    maybeDone(run);
  });
  return summary(run, started);
}

function progress(run: ApplyRun): void {
  run.options.onProgress?.({ done: run.results.size, total: run.plan.changes.length, failed: run.failed });
}

function base(c: Change) {
  return {
    id: c.id,
    kind: c.kind,
    action: c.action,
    address: c.address,
    ...(c.note ? { note: c.note } : {}),
  };
}

function maybeDone(run: ApplyRun): void {
  if (run.running === 0 && (run.results.size === run.plan.changes.length || run.options.shouldStop?.()))
    run.resolveAll();
}

/** Mark every change below `id` skipped, `because`. */
function skip(run: ApplyRun, id: string, because: string): void {
  for (const childId of run.dependents.get(id) ?? []) {
    if (run.results.has(childId)) continue;
    const child = run.byId.get(childId)!;
    run.results.set(childId, { ...base(child), status: 'skipped', durationMs: 0, message: because });
    run.options.logger?.warn(
      { change: childId, address: child.address, action: child.action, status: 'skipped', because },
      'change skipped',
    );
    skip(run, childId, because);
  }
}

/** Start one change whose dependencies succeeded, unless the apply stops or its organization's gate closed. */
function start(run: ApplyRun, change: Change): void {
  const { options } = run;
  if (options.shouldStop?.()) return;
  const gate = options.gateFor?.(changeOrg(change));
  if (gate && gate.remainingMs() <= 0) {
    // Ownership lost: this organization's queue stops between calls; the new owner re-plans.
    const because = `not written: ${gate.label}`;
    run.results.set(change.id, { ...base(change), status: 'skipped', durationMs: 0, message: because });
    options.logger?.warn({ change: change.id, status: 'skipped', because }, 'change skipped');
    skip(run, change.id, because);
    progress(run);
    return;
  }
  run.running += 1;
  const t0 = Date.now();
  const log = options.logger?.child({
    change: change.id,
    address: change.address,
    action: change.action,
    kind: change.kind,
  });
  withWriteGate(gate, () =>
    runOne(run.api, change, run.produced, run.attempts, {
      gate,
      shouldStop: options.shouldStop,
      logger: log,
    }),
  )
    .then(({ output, adopted }) => applied(run, change, t0, log, output, adopted))
    .catch((error: unknown) => failedChange(run, change, t0, log, error))
    .finally(() => {
      run.running -= 1;
      progress(run);
      maybeDone(run);
    });
}

/** A change applied: record it, and start each dependent that waited only for it. */
function applied(
  run: ApplyRun,
  change: Change,
  t0: number,
  log: Logger | undefined,
  output: OpOutput,
  adopted: boolean,
): void {
  run.produced.set(change.id, output);
  const durationMs = Date.now() - t0;
  run.results.set(change.id, {
    ...base(change),
    status: 'applied',
    durationMs,
    ...(adopted ? { adopted } : {}),
  });
  log?.info({ status: 'applied', durationMs, adopted }, 'change applied');
  for (const childId of run.dependents.get(change.id) ?? []) {
    const left = run.waiting.get(childId)! - 1;
    run.waiting.set(childId, left);
    if (left === 0 && !run.results.has(childId)) start(run, run.byId.get(childId)!);
  }
}

/** A change failed: record why, and skip what depends on it. */
function failedChange(
  run: ApplyRun,
  change: Change,
  t0: number,
  log: Logger | undefined,
  error: unknown,
): void {
  run.failed += 1;
  const durationMs = Date.now() - t0;
  const message = error instanceof ApiError ? (error.apiMessage ?? error.message) : (error as Error).message;
  const code = error instanceof ApiError ? error.code : ((error as { code?: string }).code ?? 'error');
  run.results.set(change.id, { ...base(change), status: 'failed', durationMs, message, code });
  log?.error({ status: 'failed', durationMs, code, err: message }, 'change failed');
  skip(run, change.id, `${change.id} failed`);
}

/** The result of every change in the plan's order (what never started: skipped), and the counts. */
function summary(run: ApplyRun, started: number): ApplyResult {
  const { plan, results, failed } = run;
  for (const c of plan.changes)
    if (!results.has(c.id))
      results.set(c.id, {
        ...base(c),
        status: 'skipped',
        durationMs: 0,
        message: 'stopped before it started',
      });
  const list = plan.changes.map((c) => results.get(c.id)!);
  const applied = list.filter((r) => r.status === 'applied').length;
  const skipped = list.filter((r) => r.status === 'skipped').length;
  return {
    results: list,
    applied,
    failed,
    skipped,
    ok: failed === 0 && skipped === 0,
    durationMs: Date.now() - started,
  };
}
