import cron, { type ScheduledTask } from 'node-cron';
import type { ConfigSource } from '../source/types.js';
import type { Trigger } from './types.js';

/** At most this much random delay is added to each poll, so replicas do not poll in step. */
const MAX_JITTER_MS = 5_000;

/** When the daemon runs by itself: on a source change (watch), every poll interval, on the drift cron. */
export class Schedule {
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private cronTask: ScheduledTask | undefined;
  private stopWatch: (() => Promise<void>) | undefined;

  constructor(
    private readonly opts: { intervalMs: number; driftCron?: string },
    private readonly trigger: (kind: Trigger) => void,
  ) {}

  /** Watches first (when the source can), so that no change made during the first run goes unnoticed. */
  async watch(source: ConfigSource): Promise<void> {
    if (source.watch) this.stopWatch = await source.watch(() => this.trigger('watch'));
  }

  start(): void {
    this.schedulePoll();
    if (this.opts.driftCron)
      this.cronTask = cron.schedule(this.opts.driftCron, () => this.trigger('drift'), { noOverlap: true });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.cronTask?.stop();
    await this.stopWatch?.();
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    const jitter = Math.floor(Math.random() * Math.min(MAX_JITTER_MS, this.opts.intervalMs * 0.1));
    this.timer = setTimeout(() => {
      this.trigger('poll');
      this.schedulePoll();
    }, this.opts.intervalMs + jitter);
    this.timer.unref?.();
  }
}
