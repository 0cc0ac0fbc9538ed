import type { Daemon } from '../daemon.js';
import type { PendingPlan } from '../runs/journal.js';
import type { RunRecord } from '../runs/run-record.js';

/** What the status page shows: the daemon's status, its readiness, the pending plan, recent runs. */
export type StatusView = {
  status: Daemon['status'];
  ready: boolean;
  pending: PendingPlan | null;
  /** Newest first. */
  runs: RunRecord[];
  now: Date;
  refreshSeconds: number;
};
