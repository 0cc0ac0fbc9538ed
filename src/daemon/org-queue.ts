import type { Trigger } from './types.js';

/** What one organization's run does: sync it (for this trigger), check its drift, or both. */
export type OrgJob = { sync?: Trigger; drift?: boolean };

/** Jobs asked for while one waits coalesce: the latest sync trigger, a drift check if any asked. */
function merge(a: OrgJob, b: OrgJob): OrgJob {
  const sync = b.sync ?? a.sync;
  return { ...(sync ? { sync } : {}), ...(a.drift || b.drift ? { drift: true } : {}) };
}

/**
 * Organizations run independently (issue 34): single flight per organization (a job asked for
 * during its run waits, and jobs asked for meanwhile coalesce into one), at most `limit` runs at
 * once over all organizations, the waiting ones served in the order they asked. A slow or stalled
 * organization holds one slot and its own queue, never another organization's. Closed: new jobs
 * are ignored, waiting ones dropped, runs in flight finish.
 */
export class OrgQueue {
  private readonly running = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, OrgJob>();
  /** Resolved when the queued job of an organization has run (or was dropped). */
  private readonly waiters = new Map<string, (() => void)[]>();
  /** Organizations with a queued job, in the order they asked. */
  private order: string[] = [];
  private closed = false;

  constructor(
    private readonly limit: number,
    private readonly run: (org: string, job: OrgJob) => Promise<void>,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`the limit must be at least 1, got ${limit}`);
  }

  /** Ask for a job; resolves once it ran (coalesced with others), or was dropped by `close`. */
  trigger(org: string, job: OrgJob): Promise<void> {
    if (this.closed) return Promise.resolve();
    const before = this.queued.get(org);
    this.queued.set(org, before ? merge(before, job) : job);
    if (!before) this.order.push(org);
    const done = new Promise<void>((resolve) =>
      this.waiters.set(org, [...(this.waiters.get(org) ?? []), resolve]),
    );
    this.pump();
    return done;
  }

  /** Organizations running now. */
  get active(): number {
    return this.running.size;
  }

  private pump(): void {
    while (this.running.size < this.limit) {
      const i = this.order.findIndex((org) => !this.running.has(org));
      if (i < 0) return;
      const org = this.order.splice(i, 1)[0]!;
      const job = this.queued.get(org)!;
      const waiters = this.waiters.get(org) ?? [];
      this.queued.delete(org);
      this.waiters.delete(org);
      const run = Promise.resolve()
        .then(() => this.run(org, job))
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(org);
          for (const resolve of waiters) resolve();
          this.pump();
        });
      this.running.set(org, run);
    }
  }

  /** Resolves once nothing runs or waits. */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.queued.size > 0) await Promise.all([...this.running.values()]);
  }

  close(): void {
    this.closed = true;
    for (const resolve of [...this.waiters.values()].flat()) resolve();
    this.queued.clear();
    this.waiters.clear();
    this.order = [];
  }
}
