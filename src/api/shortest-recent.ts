/**
 * The shortest attempt of each of the last `epochs` epochs of `epoch` answers, and of the current
 * one, in ms: the API's latency as adaptive concurrency sizes from it (decision 43). Recent enough
 * that a slower API is seen within a few thousand answers; long enough that a few seconds of this
 * process being busy (every attempt then seems longer: its answer waits for the event loop) do not
 * count as a slower API.
 */
export class ShortestRecent {
  private readonly past: number[] = [];
  /** The shortest of `past`, kept as it changes (once an epoch): the estimate is asked at every answer. */
  private pastMin = Number.POSITIVE_INFINITY;
  private current = Number.POSITIVE_INFINITY;
  private samples = 0;

  constructor(
    private readonly epoch = 200,
    private readonly epochs = 8,
  ) {}

  /** The estimate: the shortest recent attempt, in ms (infinite before any). */
  get value(): number {
    return Math.min(this.current, this.pastMin);
  }

  /** Count one attempt's time; the estimate after it. */
  observe(ms: number): number {
    this.current = Math.min(this.current, ms);
    this.samples += 1;
    if (this.samples >= this.epoch) {
      this.past.push(this.current);
      if (this.past.length > this.epochs) this.past.shift();
      this.pastMin = Math.min(...this.past);
      this.current = Number.POSITIVE_INFINITY;
      this.samples = 0;
    }
    return Math.min(this.current, this.pastMin);
  }
}
