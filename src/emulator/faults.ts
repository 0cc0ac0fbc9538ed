import { z } from 'zod';

/** Fault injection settings (`POST /_emulator/faults`). Posting `{}` turns every fault off. */
export const FaultConfig = z.object({
  rate: z.number().min(0).max(1).default(0),
  statuses: z.array(z.number().int().min(400).max(599)).default([500, 502, 503]),
  resetConnections: z.boolean().default(false),
  latencyMs: z.number().min(0).max(120_000).default(0),
  /** Jitter of the delay: each delayed request waits latencyMs ± up to this much (uniform, never below 0). */
  latencyJitterMs: z.number().min(0).max(120_000).default(0),
  /** Delay only this fraction of requests (all when absent). */
  latencyRate: z.number().min(0).max(1).optional(),
  /** Delay only requests of these methods (all when absent). */
  latencyMethods: z.array(z.string()).optional(),
  /** Retry-After of injected 429 answers. */
  retryAfterSeconds: z.number().int().min(0).max(3600).default(1),
  methods: z.array(z.string()).optional(),
  /**
   * Writes (not GET) whose path contains `path` (all when absent) answer as if they succeeded and
   * change nothing: an API that loses a write. What verified apply must notice.
   */
  ignoreWrites: z.object({ path: z.string().optional() }).nullable().optional(),
  seed: z.number().int().optional(),
  rateLimit: z
    .object({
      limit: z.number().int().min(1),
      windowSeconds: z.number().min(0.1),
      /** fixed: windows aligned to the clock; sliding: any span of the window's length. */
      model: z.enum(['fixed', 'sliding']).default('fixed'),
      /** false: answer without any rate-limit header (429 and Retry-After only). */
      headers: z.boolean().default(true),
    })
    .nullable()
    .optional(),
});
export type FaultConfig = z.infer<typeof FaultConfig>;

/** mulberry32: a small seeded PRNG so fault runs can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A rate limiter over fixed (clock-aligned) or sliding windows. */
export class RateWindow {
  private windowStart = 0;
  private used = 0;
  /** Sliding: the times of the requests allowed within the last window. */
  private times: number[] = [];
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly model: 'fixed' | 'sliding' = 'fixed',
    readonly headers = true,
  ) {}

  take(nowMs: number): {
    allowed: boolean;
    remaining: number;
    resetEpochSeconds: number;
    retryAfterSeconds: number;
  } {
    if (this.model === 'sliding') {
      this.times = this.times.filter((t) => t > nowMs - this.windowMs);
      const allowed = this.times.length < this.limit;
      if (allowed) this.times.push(nowMs);
      // The budget grows back when the oldest request leaves the window.
      const resetMs = (this.times[0] ?? nowMs) + this.windowMs;
      return {
        allowed,
        remaining: Math.max(0, this.limit - this.times.length),
        resetEpochSeconds: resetMs / 1000,
        retryAfterSeconds: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
      };
    }
    // Windows are aligned to the clock, so X-RateLimit-Reset is exact.
    const start = Math.floor(nowMs / this.windowMs) * this.windowMs;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = 0;
    }
    const resetMs = this.windowStart + this.windowMs;
    const allowed = this.used < this.limit;
    if (allowed) this.used += 1;
    return {
      allowed,
      remaining: Math.max(0, this.limit - this.used),
      resetEpochSeconds: resetMs / 1000,
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
    };
  }
}
