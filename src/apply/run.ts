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
  const produced: Produced = new Map();
  const results = new Map<string, ChangeResult>();
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const waiting = new Map(plan.changes.map((c) => [c.id, c.dependsOn.filter((d) => byId.has(d)).length]));
  const dependents = new Map<string, string[]>();
  for (const c of plan.changes)
    for (const d of c.dependsOn) dependents.set(d, [...(dependents.get(d) ?? []), c.id]);
  const attempts = options.creationAttempts ?? 3;
  let failed = 0;

  const progress = () => options.onProgress?.({ done: results.size, total: plan.changes.length, failed });
  const base = (c: Change) => ({
    id: c.id,
    kind: c.kind,
    action: c.action,
    address: c.address,
    ...(c.note ? { note: c.note } : {}),
  });

  const skip = (id: string, because: string) => {
    for (const childId of dependents.get(id) ?? []) {
      if (results.has(childId)) continue;
      const child = byId.get(childId)!;
      results.set(childId, { ...base(child), status: 'skipped', durationMs: 0, message: because });
      options.logger?.warn(
        { change: childId, address: child.address, action: child.action, status: 'skipped', because },
        'change skipped',
      );
      skip(childId, because);
    }
  };

  await new Promise<void>((resolveAll) => {
    let running = 0;
    const maybeDone = () => {
      if (running === 0 && (results.size === plan.changes.length || options.shouldStop?.())) resolveAll();
    };
    const start = (change: Change) => {
      if (options.shouldStop?.()) return;
      const gate = options.gateFor?.(changeOrg(change));
      if (gate && gate.remainingMs() <= 0) {
        // Ownership lost: this organization's queue stops between calls; the new owner re-plans.
        const because = `not written: ${gate.label}`;
        results.set(change.id, { ...base(change), status: 'skipped', durationMs: 0, message: because });
        options.logger?.warn({ change: change.id, status: 'skipped', because }, 'change skipped');
        skip(change.id, because);
        progress();
        return;
      }
      running += 1;
      const t0 = Date.now();
      const log = options.logger?.child({
        change: change.id,
        address: change.address,
        action: change.action,
        kind: change.kind,
      });
      withWriteGate(gate, () =>
        runOne(api, change, produced, attempts, { gate, shouldStop: options.shouldStop, logger: log }),
      )
        .then(({ output, adopted }) => {
          produced.set(change.id, output);
          const durationMs = Date.now() - t0;
          results.set(change.id, {
            ...base(change),
            status: 'applied',
            durationMs,
            ...(adopted ? { adopted } : {}),
          });
          log?.info({ status: 'applied', durationMs, adopted }, 'change applied');
          for (const childId of dependents.get(change.id) ?? []) {
            const left = waiting.get(childId)! - 1;
            waiting.set(childId, left);
            if (left === 0 && !results.has(childId)) start(byId.get(childId)!);
          }
        })
        .catch((error: unknown) => {
          failed += 1;
          const durationMs = Date.now() - t0;
          const message =
            error instanceof ApiError ? (error.apiMessage ?? error.message) : (error as Error).message;
          const code =
            error instanceof ApiError ? error.code : ((error as { code?: string }).code ?? 'error');
          results.set(change.id, { ...base(change), status: 'failed', durationMs, message, code });
          log?.error({ status: 'failed', durationMs, code, err: message }, 'change failed');
          skip(change.id, `${change.id} failed`);
        })
        .finally(() => {
          running -= 1;
          progress();
          maybeDone();
        });
    };
    for (const c of plan.changes) if (waiting.get(c.id) === 0) start(c);
    maybeDone();
  });

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
