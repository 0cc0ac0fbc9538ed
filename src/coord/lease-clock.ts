import { DocsyncError } from '../errors.js';
/**
 * When a lease is certainly held (decision 21). The server restarts a lease's TTL when it receives
 * a keep-alive, which is after this process sent it; counting from the moment of sending, on the
 * monotonic clock, never over-estimates what is left. A process that was paused (SIGSTOP, a long
 * GC) finds its gate closed when it resumes, before it can send anything.
 */
export class LeaseClock {
  private sentAt: number | null = null;

  constructor(
    readonly ttlMs: number,
    readonly marginMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (marginMs >= ttlMs)
      throw new DocsyncError('invalid-option', 'the lease margin must be shorter than its TTL');
  }

  /** The monotonic time to pass to `renewed` once the request sent now succeeds. */
  mark(): number {
    return this.now();
  }

  /** A grant or keep-alive sent at `sentAt` succeeded. */
  renewed(sentAt: number): void {
    if (this.sentAt === null || sentAt > this.sentAt) this.sentAt = sentAt;
  }

  /** The lease is gone (expired, revoked, or never granted). */
  lost(): void {
    this.sentAt = null;
  }

  /** How long writes may still run: TTL − margin after the last successful renewal was sent. */
  remainingMs(): number {
    if (this.sentAt === null) return 0;
    return this.sentAt + this.ttlMs - this.marginMs - this.now();
  }

  held(): boolean {
    return this.remainingMs() > 0;
  }

  /** Monotonic ms since the last successful renewal was sent (Infinity: never). */
  sinceRenewalMs(): number {
    return this.sentAt === null ? Number.POSITIVE_INFINITY : this.now() - this.sentAt;
  }
}

/** The default margin: a fifth of the TTL, at least 500 ms, and always below the TTL. */
export function defaultMarginMs(ttlMs: number): number {
  return Math.min(Math.max(500, Math.round(ttlMs / 5)), Math.floor(ttlMs / 2));
}
