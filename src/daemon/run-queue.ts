import type { Trigger } from './types.js';

/**
 * Single flight: one run at a time; triggers during a run coalesce into one follow-up (a drift
 * check wins over anything else). Closed: triggers are ignored, the run in flight finishes.
 */
export class RunQueue {
  private running: Promise<void> | null = null;
  private queued: Trigger | null = null;
  private closed = false;

  constructor(private readonly run: (trigger: Trigger) => Promise<void>) {}

  trigger(kind: Trigger): void {
    if (this.closed) return;
    if (this.running) {
      this.queued = this.queued === 'drift' ? 'drift' : kind;
      return;
    }
    this.running = this.run(kind).finally(() => {
      this.running = null;
      const next = this.queued;
      this.queued = null;
      if (next) this.trigger(next);
    });
  }

  /** A run is in flight. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves once no run is in flight or queued. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
  }
}
