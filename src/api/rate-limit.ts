/**
 * The client's view of the server's rate budget, from `X-RateLimit-*` headers. Requests take a
 * slot before they start; when the budget is spent they wait for the window to reset instead of
 * spending into a 429.
 */
export class RateBudget {
  limit: number | null = null;
  remaining: number | null = null;
  /** Epoch ms when the current window resets. */
  resetAt = 0;
  /** Epoch ms before which no request may start (after a 429 or an exhausted budget). */
  pausedUntil = 0;
  private inFlight = 0;
  private available: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** How long to wait before a request may start (0: go now). Takes the slot when it returns 0. */
  acquire(): number {
    const now = this.now();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.available !== null && this.available <= 0) {
      if (now < this.resetAt) return this.resetAt - now;
      // The window has reset: assume a full budget until the next answer says otherwise.
      this.available = this.limit !== null ? this.limit - this.inFlight : null;
    }
    if (this.available !== null) this.available -= 1;
    this.inFlight += 1;
    return 0;
  }

  /** A request that took a slot has finished; `headers` are its answer's, if any. */
  release(headers?: Record<string, string | string[] | undefined>): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (!headers) return;
    const limit = num(headers['x-ratelimit-limit']);
    const remaining = num(headers['x-ratelimit-remaining']);
    const reset = num(headers['x-ratelimit-reset']);
    if (limit !== null) this.limit = limit;
    if (reset !== null) this.resetAt = reset > 1e9 ? reset * 1000 : this.now() + reset * 1000;
    if (remaining !== null) {
      this.remaining = remaining;
      // Requests still in flight may spend from the same budget: count them as spent.
      this.available = remaining - this.inFlight;
    }
  }

  /** After a 429: nothing starts before the window resets (or Retry-After passes). */
  pause(retryAfterSeconds: number | null): number {
    const now = this.now();
    const until =
      retryAfterSeconds !== null ? now + retryAfterSeconds * 1000 : Math.max(this.resetAt, now + 1000);
    this.pausedUntil = Math.max(this.pausedUntil, until);
    // Unknown until the next answer says: the pause itself holds everything back until then.
    this.available = null;
    return this.pausedUntil - now;
  }
}

function num(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}
