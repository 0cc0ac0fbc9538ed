import type { ApplyResult } from '../../apply/result.js';
import type { Verification } from '../../pipeline/verify.js';
import type { Logger } from '../../log/logger.js';
import { redact } from '../../log/logger.js';
import type { LiveState } from '../../reconcile/index.js';
import { fieldLines } from '../../plan/format-value.js';
import type { Plan, PlanSummary } from '../../plan/types.js';
import type { RunChange, RunRecord, RunResult, RunTrigger } from './run-record.js';
import type { RunStore } from './run-store.js';

/** The most changes one record keeps (the rest is counted in `changesOmitted`). */
const MAX_CHANGES = 200;
const MAX_TEXT = 2_000;

/** What the daemon reports at the end of a sync (a structural subset of its `SyncReport`). */
export type SyncOutcome = {
  runId: string;
  trigger: Exclude<RunTrigger, 'self-heal'>;
  startedAt: string;
  finishedAt?: string;
  result: RunResult;
  revision?: string;
  summary?: PlanSummary;
  message?: string;
  issues?: { file: string; line?: number; column?: number; message: string }[];
  verify?: Verification;
};

/** What the daemon reports at the end of a drift check (a subset of its `DriftReport`). */
export type DriftOutcome = { at: string; drifted: boolean; error?: string };

/** The latest plan and what of it was applied: the status page's "pending" view. */
export type PendingPlan = {
  at: string;
  revision?: string;
  plan: Plan;
  live: LiveState;
  /** Ids of the plan's changes that were applied. */
  applied: ReadonlySet<string>;
};

const clip = (text: string) => {
  const clean = redact(text);
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean;
};

/**
 * The daemon's record keeper: it is told about each plan, apply and outcome as the run goes,
 * keeps the latest plan for the status page, and appends one history record per sync or drift
 * check. It never throws into the daemon: a failed write is logged.
 */
export class RunJournal {
  private current: { plan: Plan; apply?: ApplyResult } | null = null;
  private pendingPlan: PendingPlan | null = null;
  /** The commit subject of a revision, when known (set by the wiring). */
  subjectOf: (revision: string) => string | undefined = () => undefined;

  constructor(
    readonly store: RunStore,
    private readonly logger: Logger,
  ) {}

  get pending(): PendingPlan | null {
    return this.pendingPlan;
  }

  planned(plan: Plan, live: LiveState, revision?: string): void {
    this.current = { plan };
    this.pendingPlan = {
      at: new Date().toISOString(),
      ...(revision ? { revision } : {}),
      plan,
      live,
      applied: new Set(),
    };
  }

  applied(result: ApplyResult): void {
    if (this.current) this.current.apply = result;
    if (this.pendingPlan)
      this.pendingPlan.applied = new Set(
        result.results.filter((r) => r.status === 'applied').map((r) => r.id),
      );
  }

  /** A sync ended. A sync that came from a drift check (self-heal) is recorded as `self-heal`. */
  synced(outcome: SyncOutcome): Promise<RunRecord | undefined> {
    const errors = [
      ...(outcome.message && outcome.result !== 'planned' ? [outcome.message] : []),
      ...(outcome.issues ?? []).map(
        (i) => `${i.file}${i.line ? `:${i.line}${i.column ? `:${i.column}` : ''}` : ''}: ${i.message}`,
      ),
    ];
    return this.write({
      id: outcome.runId,
      type: 'sync',
      trigger: outcome.trigger === 'drift' ? 'self-heal' : outcome.trigger,
      startedAt: outcome.startedAt,
      finishedAt: outcome.finishedAt ?? new Date().toISOString(),
      revision: outcome.revision,
      result: outcome.result,
      summary: outcome.summary,
      errors,
      ...(outcome.message && outcome.result === 'planned' ? { note: outcome.message } : {}),
      ...(outcome.verify ? { verify: outcome.verify } : {}),
    });
  }

  /** A drift check ended (before any self-heal, which is a run of its own). */
  drifted(runId: string, outcome: DriftOutcome, revision?: string): Promise<RunRecord | undefined> {
    return this.write({
      id: runId,
      type: 'drift',
      trigger: 'drift',
      startedAt: outcome.at,
      finishedAt: new Date().toISOString(),
      revision,
      result: outcome.error ? 'error' : outcome.drifted ? 'drifted' : 'in-sync',
      summary: outcome.error ? undefined : this.current?.plan.summary,
      errors: outcome.error ? [outcome.error] : [],
    });
  }

  private async write(r: {
    id: string;
    type: RunRecord['type'];
    trigger: RunTrigger;
    startedAt: string;
    finishedAt: string;
    revision: string | undefined;
    result: RunResult;
    summary: PlanSummary | undefined;
    errors: string[];
    note?: string;
    verify?: Verification;
  }): Promise<RunRecord | undefined> {
    const current = this.current;
    this.current = null;
    const plan = current?.plan;
    const outcomes = new Map((current?.apply?.results ?? []).map((x) => [x.id, x]));
    const all: RunChange[] = (plan?.changes ?? []).map((c) => {
      const o = outcomes.get(c.id);
      return {
        id: c.id,
        action: c.action,
        kind: c.kind,
        address: clip(c.address),
        fields: fieldLines(c).map(clip),
        ...(o ? { status: o.status } : {}),
        ...(o?.message ? { message: clip(o.message) } : {}),
      };
    });
    const planErrors = (plan?.errors ?? []).map((e) => `${e.organization}: ${e.message}`);
    const errors = [...new Set([...r.errors, ...planErrors])].map(clip);
    let id = r.id;
    for (let n = 2; this.store.has(id); n += 1) id = `${r.id}-${n}`;
    const apply = current?.apply;
    const record: Omit<RunRecord, 'seq'> = {
      id,
      type: r.type,
      trigger: r.trigger,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      durationMs: Math.max(0, Date.parse(r.finishedAt) - Date.parse(r.startedAt)),
      ...(r.revision ? { revision: r.revision } : {}),
      ...(r.revision && this.subjectOf(r.revision) ? { subject: clip(this.subjectOf(r.revision)!) } : {}),
      result: r.result,
      ...(r.summary ? { summary: r.summary } : {}),
      counts: {
        planned: plan?.changes.length ?? 0,
        applied: apply?.applied ?? 0,
        failed: apply?.failed ?? 0,
        skipped: apply?.skipped ?? 0,
      },
      changes: all.slice(0, MAX_CHANGES),
      ...(all.length > MAX_CHANGES ? { changesOmitted: all.length - MAX_CHANGES } : {}),
      errors,
      ...(r.note !== undefined ? { note: clip(r.note) } : {}),
      ...(r.verify ? { verify: { ...r.verify, remaining: r.verify.remaining.slice(0, MAX_CHANGES) } } : {}),
    };
    try {
      return await this.store.append(record);
    } catch (error) {
      this.logger.warn({ err: redact((error as Error).message) }, 'run history write failed');
      return undefined;
    }
  }
}
