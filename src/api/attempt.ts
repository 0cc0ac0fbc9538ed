import type { RequestDeadline } from './bounded-body.js';
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
 * written (as a subclass: no closures made per attempt).
 */
export class Attempt extends Exchange {
  /** When it was written, by the budget's clock (undefined: not yet). */
  sentAt: number | undefined = undefined;
  /** A chained request (priority above 0), counted in `writes.unwritten` until written or over. */
  private unwritten: boolean;

  constructor(
    maxBytes: number,
    readonly deadline: RequestDeadline,
    private readonly writes: Writes,
    chained: boolean,
  ) {
    super(maxBytes, deadline);
    this.unwritten = chained;
    if (chained) writes.unwritten += 1;
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

/** Settles in the check phase after this turn's: what this turn wrote to a kept-alive socket is written by then. */
export function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
