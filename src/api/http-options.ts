/** Hooks for metrics: the daemon maps them to Prometheus, the CLI to its progress line. */
export type HttpObserver = {
  request?(method: string, route: string, status: number | 'error', durationMs: number): void;
  retry?(method: string, route: string, reason: string): void;
  paused?(ms: number): void;
  budget?(remaining: number | null, limit: number | null): void;
};

export type HttpOptions = {
  baseUrl: string;
  token: string;
  userAgent: string;
  concurrency?: number;
  /**
   * The most requests in flight: above `concurrency` (the start and the floor), the client grows
   * to what the server's rate limit allows at the latency it sees (decision 27). Default: `concurrency`.
   */
  maxConcurrency?: number;
  /** Total deadline of one attempt (headers and body together), in ms. */
  timeoutMs?: number;
  /** The largest answer accepted, in bytes. */
  maxResponseBytes?: number;
  /** The most pages one list may take (a guard against endless pagination). */
  maxPages?: number;
  connectTimeoutMs?: number;
  maxAttempts?: number;
  /** Attempts that time out cost a whole `timeoutMs` each: at most this many per request. */
  maxTimeoutAttempts?: number;
  maxRateLimitWaits?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  observer?: HttpObserver;
  random?: () => number;
};
