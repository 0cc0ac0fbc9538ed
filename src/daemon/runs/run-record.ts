import type { ChangeStatus } from '../../apply/result.js';
import type { ChangeAction } from '../../model/index.js';
import type { ResourceKind } from '../../reconcile/index.js';
import type { PlanSummary } from '../../plan/types.js';
import type { Verification } from '../../pipeline/verify.js';

/**
 * What started a run. `self-heal` is the apply that corrects drift found by the schedule;
 * `manual` a sync asked for through `POST /api/orgs/{org}/sync`.
 */
export type RunTrigger =
  'startup' | 'poll' | 'webhook' | 'watch' | 'drift' | 'self-heal' | 'ownership' | 'manual';

/** How a run ended: the sync results of `/status`, plus the two outcomes of a drift check. */
export type RunResult =
  | 'applied'
  | 'planned'
  | 'no-changes'
  | 'invalid-config'
  | 'failed'
  | 'refused'
  | 'error'
  | 'in-sync'
  | 'drifted';

/** One change a run planned, with its outcome when it was applied. */
export type RunChange = {
  id: string;
  action: ChangeAction;
  kind: ResourceKind;
  address: string;
  /** The changed fields, as the text plan shows them (`key: before → after`). */
  fields: string[];
  status?: ChangeStatus;
  message?: string;
};

export type RunCounts = { planned: number; applied: number; failed: number; skipped: number };

/** One entry of the run history: a sync or a drift check, as it ended. */
export type RunRecord = {
  /** Position in the history, increasing; the paging cursor. */
  seq: number;
  id: string;
  type: 'sync' | 'drift';
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  revision?: string;
  subject?: string;
  result: RunResult;
  summary?: PlanSummary;
  counts: RunCounts;
  changes: RunChange[];
  /** Changes left out of `changes` to keep a record small. */
  changesOmitted?: number;
  /** What went wrong, in words (redacted). */
  errors: string[];
  /** Why a run planned without applying: "apply skipped: …" (a suspension, a closed sync window). */
  note?: string;
  /** After an apply that changed something: converged, or what remains (verified apply). */
  verify?: Verification;
};

/** A record without its changes: the list form of `GET /api/runs`. */
export type RunSummary = Omit<RunRecord, 'changes'>;

export function summarize(record: RunRecord): RunSummary {
  const { changes: _changes, ...rest } = record;
  return rest;
}
