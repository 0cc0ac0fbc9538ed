import { DeadlineError } from './bounded-body.js';
import { Exchange } from './exchange.js';
import type { RateBudget } from './rate-limit.js';

/** The requests written, and the waits for the next (`HttpPacing.written`). */
export class Writes {
  /** Chained requests handed to undici and not written yet (`HttpPacing.nextLater`). */
  unwritten = 0;
  /** Waiting for the next request to be written. */
  readonly waiting: (() => void)[] = [];
  constructor(readonly budget: RateBudget) {}

  /** A request was written, or none is left to be: every wait for one is over. */
  all(): void {
    if (this.waiting.length > 0) for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/**
 * One attempt's exchange, which tells the rate budget and the client's writes when its request is
 * written, and keeps the attempt's total deadline (as a subclass: no closures made per attempt).
 *
 * The deadline is the attempt's own timer, whose callback stops the exchange: no deadline object
 * with its listener (a closure and its context) registered and removed per attempt, as an
 * exchange given a signal has (decision 42's seventeenth pass, req6).
 */
export class Attempt extends Exchange {
  /** When it was written, by the budget's clock (undefined: not yet). */
  sentAt: number | undefined = undefined;
  /** Set when the attempt's deadline passed (before or after its exchange ended). */
  expired: DeadlineError | undefined = undefined;
  /** A chained request (priority above 0), counted in `writes.unwritten` until written or over. */
  private unwritten: boolean;
  /**
   * Node's timer of the deadline: Node keeps the timers of one duration in one list under one native
   * timer, so thousands of attempts with the client's timeout cost one `Timeout` each and nothing more.
   */
  private readonly timer: NodeJS.Timeout;

  constructor(
    maxBytes: number,
    private readonly timeoutMs: number,
    private readonly writes: Writes,
    chained: boolean,
  ) {
    super(maxBytes);
    this.unwritten = chained;
    if (chained) writes.unwritten += 1;
    this.timer = setTimeout(expire, timeoutMs, this);
    this.timer.unref?.();
  }

  /** The deadline passed: the exchange stops with its error (now, or when undici is about to write). */
  expire(): void {
    if (this.expired !== undefined) return;
    this.expired = new DeadlineError(this.timeoutMs);
    this.stop(this.expired);
  }

  /** The attempt is over: its deadline no longer runs. */
  clearDeadline(): void {
    clearTimeout(this.timer);
  }

  protected override sent(): void {
    this.sentAt ??= this.writes.budget.sent();
    this.over();
    this.writes.all();
  }

  /** Written, or the attempt ended unwritten: no longer counted as waiting to be written. */
  over(): void {
    if (!this.unwritten) return;
    this.unwritten = false;
    this.writes.unwritten -= 1;
  }
}

/** A deadline timer's callback, one for every attempt (no closure made per attempt). */
const expire = (attempt: Attempt): void => attempt.expire();

/** Settles in the check phase after this turn's: what this turn wrote to a kept-alive socket is written by then. */
export function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
