/** How a server counts requests against its limit. */
export type WindowModel = 'fixed' | 'sliding';

export type RateModel = {
  limit: number;
  windowMs: number;
  model: WindowModel;
  /** Fixed windows: how far into its current window the server is when the run starts (ms). */
  phaseMs?: number;
};

/**
 * The true lower bound of a rate-limited run: the earliest time (ms from the start) at which the
 * last of `n` requests can start, for a client that keeps every rule at once:
 *
 * - the server's own: at most `limit` requests per clock-aligned window (fixed), or per any span
 *   of `windowMs` (sliding);
 * - docsync's: never more than `limit` within any span of `windowMs`, whatever the server counts.
 *
 * Computed by sending each request at the earliest moment both rules allow (greedy), which is
 * optimal for such rules: starting a request earlier never delays a later one. Request latency
 * is left out, so the bound is strictly below any real run.
 */
export function lowerBound(n: number, { limit, windowMs, model, phaseMs = 0 }: RateModel): number {
  const starts: number[] = [];
  let windowIndex = -1;
  let usedInWindow = 0;
  let t = 0;
  for (let i = 0; i < n; i += 1) {
    // Sliding rule (docsync's, and the server's when it counts that way).
    if (i >= limit) t = Math.max(t, starts[i - limit]! + windowMs);
    if (model === 'fixed') {
      // Windows are aligned to the server's clock: the run starts `phaseMs` into one.
      let w = Math.floor((t + phaseMs) / windowMs);
      if (w !== windowIndex) {
        windowIndex = w;
        usedInWindow = 0;
      }
      if (usedInWindow >= limit) {
        w += 1;
        t = w * windowMs - phaseMs;
        windowIndex = w;
        usedInWindow = 0;
      }
      usedInWindow += 1;
    }
    starts.push(t);
  }
  return starts.length > 0 ? starts[starts.length - 1]! : 0;
}
