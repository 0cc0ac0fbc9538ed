/**
 * The client's pacer: it keeps requests within the server's rate limit as the answers describe it
 * (`X-RateLimit-Limit/Remaining/Reset`, and the window length from `RateLimit-Policy: L;w=S` or, without
 * it, from how far the reset moves when a window ends). Requests take a slot before they start.
 *
 * - Never more than `limit` starts within ANY span of the window's length (a sliding window, with a
 *   margin for network jitter and for how much later than written the server counts starts, as
 *   its answers' `Remaining` shows), so a server counting fixed, sliding or token-bucket windows
 *   never sees more than it allows. A start counts from when it takes its slot, and as a start at
 *   the moment its request is written (`sent`): undici writes on a kept-alive socket only after the
 *   event loop's poll phase, which a busy client makes hundreds of ms long (decision 43).
 * - Spread, not burst: starts are spaced by (window + margin) / limit, or more widely when the
 *   remaining budget must last until the reset.
 * - Without any rate-limit headers nothing is paced; a 429 pauses every request until
 *   `Retry-After` (or the known reset, or one second).
 *
 * How close this comes to the fastest possible schedule is in docs/benchmarks.md (`lowerBound`).
 */
export class RateBudget {
  limit: number | null = null;
  remaining: number | null = null;
  /** Epoch ms when the current window resets. */
  resetAt = 0;
  /** Epoch ms before which no request may start (after a 429 or an exhausted budget). */
  pausedUntil = 0;
  /** The server's window length in ms, once known. */
  windowMs: number | null = null;
  private policyWindow = false;
  /** Whether any answer came back yet (before that, nothing is known about the limit). */
  private answered = false;
  /** Whether any answer came back yet (the HTTP client's streak treats the first requests apart). */
  get hasAnswered(): boolean {
    return this.answered;
  }
  private inFlight = 0;
  /** Starts that took their slot and whose request is not written yet: they count in every window. */
  private unsent = 0;
  private available: number | null = null;
  /** Start times still inside the last window (a queue: `starts[head..]`). */
  private starts: number[] = [];
  private head = 0;
  /** Earliest start of the next request, to spread requests evenly. */
  private nextAt = 0;
  /**
   * Margin added to the floor (ms): how much longer than the window the server's count reached back,
   * as its answers' `Remaining` showed (`learnSkew`), and what 429s taught (`pause`); each window's
   * second largest, kept for the last few windows (it narrows again when the skew is gone).
   */
  private readonly skew = new RecentMax(SKEW_WINDOWS);
  private widenedAt = Number.NEGATIVE_INFINITY;
  /** Whether more requests were waiting, spread, when the last one started (the grid is continuous). */
  private backlog = false;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * How long to wait before a request may start (0: go now). Takes the slot when it returns 0.
   * `waiting`: how many more requests are queued behind this one (spreading is pointless when they
   * all fit in the budget left).
   */
  acquire(waiting = Number.POSITIVE_INFINITY): number {
    const now = this.now();
    const at = this.earliestStart(now);
    if (at > now) return at - now;
    if (this.available !== null) this.available -= 1;
    this.inFlight += 1;
    this.unsent += 1;
    const gap = this.fitsInBudget(waiting, now) ? 0 : this.spacing(now);
    // Keep to the planned grid when a timer fired a little late, so lateness does not add up. While
    // requests keep waiting (a backlog), starts missed because the event loop was busy (with an
    // answer, or the plan's own work) since this one was due are made up at once, as far back as a
    // tenth of the window; the sliding-window rule still holds them to the limit. Time spent waiting
    // on purpose (a pause, a reset, the window full) is not made up: `at` is already past it.
    const from = at > now - gap ? at : this.backlog ? Math.max(at, now - this.catchUpMs()) : now;
    this.nextAt = from + gap;
    this.backlog = waiting > 0 && gap > 0;
    return 0;
  }

  /**
   * The request of a start that took its slot was written now: from here on it is a start at this
   * time. Returns that time (for `release`).
   */
  sent(): number {
    const now = this.now();
    if (this.unsent === 0) return now;
    this.unsent -= 1;
    this.starts.push(now);
    return now;
  }

  /**
   * A request that took a slot has finished; `headers` are its answer's, if any. `sentAt`: when it
   * was written (what `sent` returned); if it never was, it counts as a start now (later than it
   * was: never fewer). `servedBy`: the latest the server can have counted it (the answer's arrival
   * less the API's shortest attempt; `sentAt` when unknown).
   */
  release(headers?: Record<string, string | string[] | undefined>, sentAt?: number, servedBy?: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (sentAt === undefined) this.sent();
    if (!headers) return;
    this.answered = true;
    const now = this.now();
    const policy = parsePolicy(headers['ratelimit-policy']);
    const limit = num(headers['x-ratelimit-limit']) ?? policy?.limit ?? null;
    const remaining = num(headers['x-ratelimit-remaining']);
    const reset = num(headers['x-ratelimit-reset']);
    if (limit !== null) this.limit = limit;
    if (policy) {
      this.windowMs = policy.windowMs;
      this.policyWindow = true;
    }
    if (reset !== null) {
      const resetAt = reset > 1e9 ? reset * 1000 : now + reset * 1000;
      if (!this.policyWindow) this.learnWindow(now, resetAt);
      this.resetAt = resetAt;
    }
    if (remaining !== null) {
      this.remaining = remaining;
      // Requests still in flight may spend from the same budget: count them as spent.
      this.available = remaining - this.inFlight;
      if (sentAt !== undefined && this.limit !== null)
        this.learnSkew(
          now,
          sentAt,
          Math.min(now, Math.max(sentAt, servedBy ?? sentAt)),
          this.limit - remaining,
        );
    }
  }

  /**
   * The server counted `counted` requests in its window when it took a request, some time between
   * its write (`sentAt`) and `servedBy` at the latest. Counting more than this budget's starts
   * written within the window before that moment means it saw older starts later than they were
   * written (either side's event loop busy, the network's delays varying): its window reaches back
   * further, by as much as the starts it counted go back. The margin must cover that before the
   * count reaches the limit, not after a 429. The moment is not known, so what is learned is the
   * least reach any moment of that span explains: counted from `servedBy` alone, an answer this
   * client read late (its own event loop busy, writing nothing meanwhile) passed for a server
   * counting further back, by as long as the client was busy (about 150 ms at a plan's ramp,
   * decision 43's fifth pass); counted from the write alone, a request the server took late
   * (counted after starts written later than itself) would. Learned only from counts near the
   * limit (`NEAR_LIMIT`): far below it, skew costs nothing, and a busy machine's skew (hundreds
   * of ms while both processes wait for a core) would slow the pace for nothing. A count more than
   * this budget's kept starts (two windows' worth) can explain teaches nothing; the `Remaining`
   * budget (`available`) holds it back. Another client spending the same token's budget looks
   * like skew from here and widens the margin too (up to a quarter of the window, for as long as
   * it runs): slower than the limit allows, never faster, which is what a shared budget wants.
   */
  private learnSkew(now: number, sentAt: number, servedBy: number, counted: number): void {
    if (this.windowMs === null || this.limit === null || counted < this.limit * NEAR_LIMIT) return;
    // At a moment t, the server's `counted` starts up to t reach back to the oldest of them; t is
    // the write, or any later start up to `servedBy` (between two starts, the reach only grows).
    let reach = Number.POSITIVE_INFINITY;
    const last = this.firstAfter(servedBy);
    for (let j = this.firstAfter(sentAt) - 1; j < last; j += 1) {
      const oldest = j - counted + 1;
      if (oldest < this.head) continue;
      const t = this.starts[j]! > sentAt ? this.starts[j]! : sentAt;
      reach = Math.min(reach, t - this.starts[oldest]! - this.windowMs);
      if (reach <= 0) return;
    }
    if (reach < Number.POSITIVE_INFINITY)
      this.skew.observe(this.window(now), Math.min(reach, this.windowMs / 4));
  }

  /** After a 429: nothing starts before the window resets (or Retry-After passes). */
  pause(retryAfterSeconds: number | null): number {
    const now = this.now();
    const until =
      retryAfterSeconds !== null ? now + retryAfterSeconds * 1000 : Math.max(this.resetAt, now + 1000);
    this.pausedUntil = Math.max(this.pausedUntil, until);
    // A 429 while pacing to a known limit: the server counted more than this budget did (a start
    // is counted here when it takes its slot, there when the server handles it, later when either
    // side is busy). Keep a wider margin: double it (once per window: the 429s of one burst are one
    // lesson), up to a quarter of the window, until `SKEW_WINDOWS` windows pass without another.
    if (this.limit !== null && this.windowMs !== null && now >= this.widenedAt + this.windowMs) {
      const wider = Math.min(this.windowMs / 4, 2 * this.margin()) - margin(this.windowMs);
      this.skew.observeCertain(this.window(now), wider);
      this.widenedAt = now;
    }
    // Unknown until the next answer says: the pause itself holds everything back until then.
    this.available = null;
    return this.pausedUntil - now;
  }

  private earliestStart(now: number): number {
    // Until the first answer says what the limit is, the first few requests only (any limit allows them).
    if (!this.answered && this.inFlight >= FIRST_REQUESTS) return now + PROBE_POLL_MS;
    let at = Math.max(this.pausedUntil, this.nextAt);
    if (this.available !== null && this.available <= 0) {
      if (now < this.resetAt) at = Math.max(at, this.resetAt);
      // The window has reset: assume a full budget until the next answer says otherwise.
      else this.available = this.limit !== null ? this.limit - this.inFlight : null;
    }
    // Only the last `limit` starts matter (the last thousand while the limit is unknown), and as
    // many before them for what the server's counts teach (`learnSkew`).
    const keep = 2 * (this.limit ?? 1000);
    if (this.starts.length - this.head > keep) this.head = this.starts.length - keep;
    if (this.head > 1024 && this.head * 2 > this.starts.length) {
      this.starts = this.starts.slice(this.head);
      this.head = 0;
    }
    if (this.limit !== null && this.windowMs !== null) {
      // The starts not yet written count in every window: the sent ones may fill what is left.
      const room = this.limit - this.unsent;
      if (room <= 0) at = Math.max(at, now + PROBE_POLL_MS);
      else if (this.starts.length - this.head >= room)
        at = Math.max(at, this.starts[this.starts.length - room]! + this.windowMs + this.margin());
    }
    return at;
  }

  /**
   * Whether `waiting` more requests fit in the starts still allowed now (`budgetLeft`). Every start
   * kept counts at most once in the window, so a budget that holds them all is looked up no
   * further: a plan far below the limit (the request-heavy org's 4,333 reads under 100,000) skips
   * the window's search and its margin per start. The answer is `budgetLeft`'s.
   */
  private fitsInBudget(waiting: number, now: number): boolean {
    if (this.limit === null) return waiting < Number.POSITIVE_INFINITY;
    const least = this.limit - Math.min(this.limit, this.starts.length - this.head + this.unsent);
    if (waiting < Math.min(least, this.available ?? least)) return true;
    return waiting < this.budgetLeft(now);
  }

  /** Starts still allowed now: within the sliding window and the server's remaining budget. */
  private budgetLeft(now: number): number {
    if (this.limit === null) return Number.POSITIVE_INFINITY;
    const sliding = this.limit - Math.min(this.limit, this.startsWithinWindow(now) + this.unsent);
    return Math.min(sliding, this.available ?? sliding);
  }

  /** Starts within the last window (all those kept while its length is unknown). */
  private startsWithinWindow(now: number): number {
    if (this.windowMs === null) return this.starts.length - this.head;
    return this.starts.length - this.firstAfter(now - this.windowMs - this.margin());
  }

  /** The index of the first kept start later than `t` (starts are in time order). */
  private firstAfter(t: number): number {
    let lo = this.head;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The margin added to the window now, in ms (0 while the window is unknown). */
  get marginMs(): number {
    return this.margin();
  }

  /** The margin added to the window: for jitter, and what the server's counts and 429s taught. */
  private margin(): number {
    if (this.windowMs === null) return 0;
    return Math.min(this.windowMs / 4, margin(this.windowMs) + this.skew.value(this.window(this.now())));
  }

  /** Which window of the clock `now` falls in (for how long a lesson is kept). */
  private window(now: number): number {
    return this.windowMs === null ? 0 : Math.floor(now / this.windowMs);
  }

  /** How far behind the planned grid starts may be made up: a tenth of the window (0 unknown). */
  private catchUpMs(): number {
    return this.windowMs !== null ? this.windowMs / 10 : 0;
  }

  /** Time between two starts: the window shared evenly, or the budget left until the reset. */
  private spacing(now: number): number {
    if (this.limit === null || this.limit <= 0) return 0;
    let gap = this.windowMs !== null ? (this.windowMs + this.margin()) / this.limit : 0;
    if (this.available !== null && this.available > 0 && this.resetAt > now)
      gap = Math.max(gap, (this.resetAt - now) / (this.available + 1));
    return gap;
  }

  /**
   * Without `RateLimit-Policy`, the window is at least as long as the time to the next reset, and a
   * reset that moves on by `d` when a window ends means windows of `d` (the smallest such step).
   */
  private learnWindow(now: number, resetAt: number): void {
    const step = resetAt - this.resetAt;
    const steps = this.resetAt > 0 && this.resetAt <= now && step > 0;
    const atLeast = resetAt - now;
    if (steps)
      this.windowMs = this.windowMs === null ? step : Math.min(Math.max(this.windowMs, atLeast), step);
    else if (atLeast > 0 && (this.windowMs === null || atLeast > this.windowMs)) this.windowMs = atLeast;
  }
}

/** How many windows a lesson about the margin is kept (`RateBudget.skew`). */
const SKEW_WINDOWS = 3;

/** The server's count, as a share of the limit, from which its skew is learned (`learnSkew`). */
const NEAR_LIMIT = 0.9;

/**
 * The second largest value observed in each of the last `windows` windows (numbered by the
 * caller), the largest of those: a maximum that one outlier does not set and that forgets, window
 * by window. A lesson that must count at once is `observeCertain`'s.
 */
class RecentMax {
  /** Per window: its largest and second largest values. */
  private readonly tops = new Map<number, [number, number]>();
  constructor(private readonly windows: number) {}

  observe(window: number, value: number): void {
    const top = this.tops.get(window) ?? [0, 0];
    if (value > top[0]) this.tops.set(window, [value, top[0]]);
    else if (value > top[1]) this.tops.set(window, [top[0], value]);
    for (const w of this.tops.keys()) if (w <= window - this.windows) this.tops.delete(w);
  }

  /** A value that counts at once, not only when a second one confirms it (a 429's lesson). */
  observeCertain(window: number, value: number): void {
    this.observe(window, value);
    this.observe(window, value);
  }

  value(window: number): number {
    let max = 0;
    for (const [w, top] of this.tops)
      if (w > window - this.windows && w <= window) max = Math.max(max, top[1]);
    return max;
  }
}

/**
 * Requests in flight before any answer has said what the limit is: a plan's first lists (the custom
 * fields', the teams', the sites') start together, not one round trip after the other (decision 43,
 * "First requests together"). Their failures count once toward the unreachable streak when they
 * were in flight together (`HttpClient.countStreak`).
 */
export const FIRST_REQUESTS = 4;
/** How often a request waiting for the first answer (or for starts to be written) looks again. */
const PROBE_POLL_MS = 10;

/**
 * The margin's floor: 1 % of the window, at least 50 ms. A start is counted when its request is
 * written; the server counts it when it handles it, which a busy event loop on either side delays
 * by tens of ms. What the server's counts show beyond that is added (`learnSkew`) only once they
 * show it, an answer later: the floor covers a skew that grows faster (25 ms let 6 × 429 through
 * at 600 requests a second, decision 43's fourth pass).
 */
const margin = (windowMs: number) => Math.max(50, windowMs * 0.01);

type Policy = { readonly limit: number; readonly windowMs: number };

/**
 * The last policy read, by its header's text: every answer of an API carries the same one, which
 * was read again (three regular expressions and their matches) per answer.
 */
let lastPolicy: { raw: string; policy: Policy | null } | undefined;

/** `RateLimit-Policy` (IETF draft): `60;w=10` or `"default";q=60;w=10`. */
function parsePolicy(value: string | string[] | undefined): Policy | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (lastPolicy?.raw === raw) return lastPolicy.policy;
  const policy = readPolicy(raw);
  lastPolicy = { raw, policy };
  return policy;
}

function readPolicy(raw: string): Policy | null {
  const w = /(?:^|;)\s*w=(\d+(?:\.\d+)?)/.exec(raw);
  const q = /(?:^|;)\s*q=(\d+)/.exec(raw) ?? /^\s*(\d+)\s*(?:;|$)/.exec(raw);
  if (!w || !q) return null;
  const windowMs = Number(w[1]) * 1000;
  const limit = Number(q[1]);
  return windowMs > 0 && limit > 0 ? { limit, windowMs } : null;
}

function num(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}
