import {
  AnswerTooLargeError,
  DeadlineError,
  requestDeadline,
  type DeadlineSignal,
  type RequestDeadline,
} from './bounded-body.js';
import { Call, promiseOf } from './call.js';
import { ApiError, codeForStatus } from './errors.js';
import { Lanes } from './lane-queue.js';
import { RateBudget } from './rate-limit.js';
import { ShortestRecent } from './shortest-recent.js';
import { currentWriteGate, gatedTimeout } from './write-gate.js';
import { Agent, errors as undiciErrors } from './undici.js';
import { Exchange } from './exchange.js';
import type { AnswerHeaders } from './answer-headers.js';
import { registerSecret } from '../secrets/registry.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './limits.js';
import { jsonText } from './json-text.js';

import type { HttpRequest, HttpResponse } from './request.js';

export type { HttpMethod, HttpRequest, HttpResponse } from './request.js';

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

/** Chained requests (priority above 0) under way up to which one may run above the adaptive concurrency (`HttpClient.room`). */
const CHAINED_ABOVE = 4;

/** With 1000 items a page, a million items per list. */
export const DEFAULT_MAX_PAGES = 1000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Error codes of undici that mean the request never left this process. */
export const NOT_SENT: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/**
 * The one place where HTTP policy lives: a single queue (concurrency), the rate budget,
 * retries with exponential backoff and full jitter, and typed errors.
 */
export class HttpClient {
  readonly budget = new RateBudget();
  /**
   * Requests not started yet. A request leaves it when it has its slot of the rate budget, the
   * best one at that moment (a list's next page first, then the lane furthest behind): deciding
   * earlier, when a request only began to wait for its slot, let a next page wait behind every
   * request already waiting, and a list of 15 pages took 15 times that (decision 43).
   */
  private readonly waiting: Lanes<Call>;
  /** Requests started (their first slot taken) and not done. */
  private running = 0;
  /** The most requests running at once (adaptive: `adapt`). */
  private concurrency: number;
  /** Whether a slot is being waited for on behalf of `waiting`. */
  private pumping = false;
  /** Set by `pump` for the request it starts: its first slot is taken (`run` reads it at once). */
  private granted = false;
  private idle: (() => void)[] = [];
  /** The requests written, and those waiting for the next (`written`). */
  private readonly writes: Writes;
  private readonly agent: InstanceType<typeof Agent>;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly opts: Required<Omit<HttpOptions, 'observer' | 'maxConcurrency'>> & {
    observer: HttpObserver;
    maxConcurrency: number;
  };
  private closed = false;
  /**
   * Set when a request gave up on a transport failure (network or timeout, retries exhausted):
   * the API is unreachable, so the requests after it fail at once instead of each spending its
   * own attempts, for as long as giving up took (at least one timeout). Then the API is tried
   * again (a daemon keeps one client across runs); any answer clears it.
   */
  private gaveUp: { error: ApiError; until: number } | undefined;
  /**
   * Attempts of any request that failed in a row without any answer from the API (a connection
   * refused, a timeout): the rate budget lets one request probe at a time before the first
   * answer, so an unreachable API is judged by these, not by each request's own attempts.
   */
  private streak: { count: number; timeouts: number; since: number } | undefined;
  /** The last request's turn for a slot of the rate budget (the next waits for it). */
  private turn: Promise<void> = Promise.resolve();
  /** Requests waiting for a slot of the rate budget. */
  private pacing = 0;
  /** Ends the turn's sleep for a slot at once (`nap`), while one sleeps. */
  private wake: (() => void) | undefined;
  /** Requests of a priority above 0 (a list's next page, a leading list) sent and not settled. */
  private chained = 0;
  /** The routes whose reads weigh more (or less) than 1 in the queue's turns (`shareRoute`). */
  private readonly shares = new Map<string, number>();
  /** Answers of priority 0 waiting for their turn while a chained request is under way (`later`). */
  private readonly answersLater: (() => void)[] = [];
  /** Whether `nextLater` let the last turn go to such a write (it does so once in a row). */
  private yielded = false;
  /** The shortest recent attempt (for the concurrency the rate limit allows). */
  private readonly rtt = new ShortestRecent();
  /** The headers of every request (a body adds its type). */
  private readonly headers: Record<string, string>;

  constructor(options: HttpOptions) {
    this.waiting = new Lanes<Call>(this.shares);
    this.writes = new Writes(this.budget);
    this.opts = {
      concurrency: 4,
      timeoutMs: 30_000,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      maxPages: DEFAULT_MAX_PAGES,
      connectTimeoutMs: 10_000,
      maxAttempts: 5,
      maxTimeoutAttempts: 3,
      maxRateLimitWaits: 50,
      backoffBaseMs: 250,
      backoffCapMs: 10_000,
      random: Math.random,
      observer: {},
      ...options,
      maxConcurrency: Math.max(options.maxConcurrency ?? 0, options.concurrency ?? 4),
    };
    // The token is a secret wherever the client is made, not only where the CLI reads it.
    registerSecret(options.token);
    this.headers = {
      authorization: `Bearer ${options.token}`,
      'user-agent': this.opts.userAgent,
      accept: 'application/json',
    };
    const url = new URL(apiBase(options.baseUrl));
    this.origin = url.origin;
    this.basePath = url.pathname;
    this.concurrency = this.opts.concurrency;
    this.agent = new Agent({
      keepAliveTimeout: 4_000,
      connections: this.opts.maxConcurrency * 2,
      // The attempt's deadline covers the connection too; the connect timeout is never longer.
      connectTimeout: Math.min(this.opts.connectTimeoutMs, this.opts.timeoutMs),
      headersTimeout: this.opts.timeoutMs,
      bodyTimeout: this.opts.timeoutMs,
    });
  }

  /** The API's `/v1` URL. */
  get baseUrl(): string {
    return `${this.origin}${this.basePath}`;
  }

  /** Timeout of one attempt, in ms (a write gate may cut an attempt's deadline shorter: `ApiError.deadlineMs`). */
  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /** The most pages one list may take. */
  get maxPages(): number {
    return this.opts.maxPages;
  }

  get pending(): number {
    return this.waiting.size + this.running;
  }

  /**
   * Settles when the next request is written to its socket, or when none is waiting or running
   * once the caller's turn is over (the requests it sends are queued by then), or when the last one
   * ends unwritten: CPU work that can wait for an answer goes after it, while the request is on its
   * way (a plan's first request waits for no other setup than its own, decision 43's fifth pass).
   */
  written(): Promise<void> {
    return new Promise((resolve) => {
      this.writes.waiting.push(resolve);
      setImmediate(() => {
        if (this.pending === 0) resolve();
      });
    });
  }

  /**
   * Run one API call through the queue with the retry policy. `shape`, when given, makes what the
   * caller keeps of the answer (a page's items in their live form) as soon as it arrives, and the
   * promise settles with that (or with what `shape` throws). A caller's promise, and every frame
   * that awaits it, is made when the call is queued: after seconds in a long queue it lives in
   * the old generation, and what it receives survives there, garbage or not, until the next full
   * collection (decision 42). `shape` gives it only what is kept anyway.
   */
  send(req: HttpRequest): Promise<HttpResponse>;
  send<T>(req: HttpRequest, shape: (res: HttpResponse) => T): Promise<T>;
  send<T>(req: HttpRequest, shape?: (res: HttpResponse) => T): Promise<T | HttpResponse> {
    // A write carries the gate of the context that asked for it (src/api/write-gate.ts).
    const call = new Call(req, shape, req.method === 'GET' ? undefined : currentWriteGate());
    const promise = promiseOf(call) as Promise<T | HttpResponse>;
    // Counted before it is queued: the pump may start it at once, and `chainedNext` counts it.
    if (call.priority) this.chained += 1;
    // Reads of one route wait in one lane, and the lanes share the turns (src/api/lane-queue.ts);
    // the lane's share is the queue's to look up (`shareRoute`).
    this.waiting.push(call, call.priority);
    this.pump();
    // The pump, asleep for a slot, asks the budget again (`nap`).
    if (call.priority) this.wake?.();
    return promise;
  }

  /**
   * The weight of a GET route's reads in the queue's turns (`LaneOptions.share`), from the next read
   * of it on (undefined: back to 1): the live read gives the reads below a kind diffed ahead a larger one, so that they end
   * before the other lanes and the kind's diff runs while those are still read (decision 43).
   */
  shareRoute(route: string, share: number | undefined): void {
    if (share === undefined) this.shares.delete(route);
    else this.shares.set(route, share);
  }

  /**
   * Settles at a later turn of the event loop, one waiting answer a turn: an answer of a lower
   * priority than a chained page waits here (`attempt`) while one is under way, so that when the
   * chained page's answer comes in the same turn as many others, it is handled (and the page after
   * it written) before them, not behind them (decision 43's seventh pass).
   */
  private later(): Promise<void> {
    return new Promise((resolve) => {
      this.answersLater.push(resolve);
      if (this.answersLater.length === 1) setImmediate(this.nextLater);
    });
  }

  private readonly nextLater = (): void => {
    // A chained request handed to undici and not written yet is written at this check phase too,
    // after this (undici writes on a kept-alive socket in an immediate of its own): the answer waits
    // one more turn, once, instead of holding the write for its parse (decision 43's eighth pass).
    if (this.writes.unwritten > 0 && !this.yielded) {
      this.yielded = true;
      setImmediate(this.nextLater);
      return;
    }
    this.yielded = false;
    const resolve = this.answersLater.shift();
    if (this.answersLater.length > 0) setImmediate(this.nextLater);
    resolve?.();
  };

  /** Wait for every queued call, then close connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pending > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.agent.close();
  }

  /**
   * Start the next waiting request when it may: fewer than `concurrency` running, and a slot of the
   * rate budget. The request is chosen once the slot is taken (decision 43).
   */
  private pump(): void {
    if (this.pumping || this.waiting.size === 0 || !this.room()) return;
    // The API was found unreachable: the request fails at once, without waiting for a slot.
    if (this.unreachable()) return this.start(false);
    this.pumping = true;
    void this.waitForBudget().then(this.granting);
  }

  /** The pump's slot came: the best waiting request starts with it. */
  private readonly granting = (): void => {
    this.pumping = false;
    this.start(true);
  };

  /**
   * Whether the best waiting request may start by the number running: below `concurrency`, or, for a
   * chained request (a list's next page, a leading list: priority above 0), up to `CHAINED_ABOVE`
   * more within `maxConcurrency`. With the client full of section reads (about 100 in flight), a
   * chained page waited for one of them to end, 1–30 ms a page; every read below the list waits
   * on the chain (decision 43's eighth pass). The pacer still decides when it starts.
   */
  private room(): boolean {
    if (this.running < this.concurrency) return true;
    const above = Math.min(this.opts.maxConcurrency, this.concurrency + CHAINED_ABOVE);
    return this.running < above && this.chainedNext();
  }

  /**
   * Whether the best waiting request is chained, one of at most `CHAINED_ABOVE` under way (a list's
   * pages: one at a time each). Many chained at once (a plan's leading lists at its start) wait
   * for room as any other read.
   */
  private chainedNext(): boolean {
    return (this.waiting.top ?? 0) > 0 && this.chained <= CHAINED_ABOVE;
  }

  /** Start the best waiting request (`granted`: with its first slot taken), then look for the next. */
  private start(granted: boolean): void {
    // Only `pump` takes from `waiting`: what was there when it began to wait still is.
    const call = this.waiting.shift()!;
    this.running += 1;
    this.granted = granted;
    // `run` never rejects; the call's turn ends a turn of the microtasks after its caller's
    // promise settled (the caller queues what follows first, as a list its next page).
    void this.run(call).then(this.ended);
    this.granted = false;
    this.pump();
  }

  /** The error the API was found unreachable with, while that judgement holds (`gaveUp`). */
  private unreachable(): ApiError | undefined {
    return this.gaveUp && Date.now() < this.gaveUp.until ? this.gaveUp.error : undefined;
  }

  private readonly ended = (): void => this.done();

  /** A request ended: start the next, or tell `close` that all are done. */
  private done(): void {
    this.running -= 1;
    this.pump();
    if (this.pending > 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
    this.writes.all();
  }

  /**
   * Run a call with the retry policy and settle its caller's promise: with the answer (made into
   * `shape`'s, when given, once the retries are over: what it throws is the caller's), or the error.
   * Never rejects.
   */
  private async run(call: Call): Promise<void> {
    // The first attempt's slot, when `pump` took it for this request (read before any await).
    let slot = this.granted;
    this.granted = false;
    // Its retries' time counts from here: not the wait in the queue (decision 0006's pause of the
    // requests after one that gave up is as long as giving up took).
    call.started = Date.now();
    try {
      for (;;) {
        if (!slot) {
          const down = this.unreachable();
          if (down) throw this.notSent(call, down);
          await this.waitForBudget();
        }
        slot = false;
        // Another request may have given up while this one waited for the budget.
        const down = this.unreachable();
        if (down) {
          this.budget.release();
          throw this.notSent(call, down);
        }
        call.attempts += 1;
        const attemptStarted = Date.now();
        let res: HttpResponse;
        try {
          res = await this.attempt(call);
          this.gaveUp = undefined;
          this.streak = undefined;
        } catch (error) {
          const pause = this.retryAfter(call, error, attemptStarted);
          if (pause !== undefined) await sleep(pause);
          continue;
        }
        // Outside the attempt's `try`: what `shape` throws is not a failed attempt.
        if (call.priority) this.chained -= 1;
        return call.answer(res);
      }
    } catch (error) {
      if (call.priority) this.chained -= 1;
      call.fail(error);
    }
  }

  /**
   * After a failed attempt: how long to sleep before the next (undefined: none, a 429's pause is
   * the budget's), or the error that ends the call, thrown.
   */
  private retryAfter(call: Call, error: unknown, attemptStarted: number): number | undefined {
    if (!(error instanceof ApiError)) throw error;
    const streak = this.countStreak(error, attemptStarted);
    if (error.code === 'rate-limited' && call.rateWaits < this.opts.maxRateLimitWaits) {
      call.rateWaits += 1;
      call.attempts -= 1;
      this.opts.observer.retry?.(call.method, call.route, 'rate-limited');
      return undefined;
    }
    if (error.code === 'timeout') call.timeouts += 1;
    call.sentBefore ||= error.sent;
    const transient = error.code === 'server' || error.code === 'network' || error.code === 'timeout';
    const retryable = transient && (!call.create || !error.sent);
    const unreachable =
      streak !== undefined &&
      (streak.count >= this.opts.maxAttempts || streak.timeouts >= this.opts.maxTimeoutAttempts);
    const { attempts, started } = call;
    const exhausted =
      attempts >= this.opts.maxAttempts || call.timeouts >= this.opts.maxTimeoutAttempts || unreachable;
    if (!retryable) throw error.afterAttempts(attempts, Date.now() - started);
    if (exhausted) {
      const from = unreachable ? Math.min(started, streak.since) : started;
      const elapsed = Date.now() - from;
      const final = error.afterAttempts(unreachable ? Math.max(attempts, streak.count) : attempts, elapsed);
      if (error.code !== 'server' && !this.unreachable()) {
        this.gaveUp = { error: final, until: Date.now() + Math.max(elapsed, this.opts.timeoutMs) };
        // After the pause, the API gets a fresh set of attempts.
        this.streak = undefined;
      }
      throw final;
    }
    this.opts.observer.retry?.(call.method, call.route, error.code);
    const ceiling = Math.min(this.opts.backoffCapMs, this.opts.backoffBaseMs * 2 ** (attempts - 1));
    return Math.floor(this.opts.random() * ceiling);
  }

  /** Count a failed attempt toward the streak (transport failures), or end it (any answer). */
  private countStreak(error: ApiError, attemptStarted: number): HttpClient['streak'] {
    if (error.status !== undefined || (error.code !== 'network' && error.code !== 'timeout'))
      return (this.streak = undefined);
    // A connection the server closed after the request went out (a kept-alive socket it had timed
    // out, typically, which a busy client reused with many open) says nothing about whether the
    // API is reachable: the request's own attempts judge it (decision 43).
    if (error.code === 'network' && error.sent) return this.streak;
    const streak = (this.streak ??= { count: 0, timeouts: 0, since: attemptStarted });
    streak.count += 1;
    if (error.code === 'timeout') streak.timeouts += 1;
    return streak;
  }

  /** A request not sent (again) because an earlier one found the API unreachable. */
  private notSent(call: Call, cause: ApiError): ApiError {
    return new ApiError({
      code: cause.code,
      method: call.method,
      route: call.route,
      apiMessage: `not sent: ${cause.message}`,
      sent: call.sentBefore,
      cause,
    });
  }

  /**
   * Wait for the rate budget's next slot. Requests take slots in turn (one chain of promises): only
   * the first waits on a timer, instead of every running request waking up at each start to find
   * the slot taken (decision 43).
   */
  private waitForBudget(): Promise<void> {
    this.pacing += 1;
    const turn = this.turn.then(this.slotTurn);
    this.turn = turn.catch(noop);
    return turn;
  }

  private readonly slotTurn = (): Promise<void> => this.nextSlot();

  private async nextSlot(): Promise<void> {
    try {
      for (;;) {
        // Behind this one: the queued requests and the running ones waiting for a slot after it.
        const wait = this.budget.acquire(this.waiting.size + this.pacing - 1);
        if (wait <= 0) return;
        // What was slept, not what was planned: a nap a chained request cuts short (`wake`) is
        // followed by another for the rest, and a 429's pause is slept here (the metric once).
        const from = Date.now();
        await this.nap(Math.ceil(wait));
        this.opts.observer.paused?.(Date.now() - from);
      }
    } finally {
      this.pacing -= 1;
    }
  }

  /**
   * Sleep `ms`, or less when `wake` is called (a chained request was queued: the budget is asked
   * again, and what it said when the sleep began may be out of date, as the poll while the first
   * answer is awaited, up to 10 ms for a list's second page).
   */
  private nap(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async attempt(call: Call): Promise<HttpResponse> {
    let timeoutMs: number;
    let path: string;
    let body: string | undefined;
    try {
      timeoutMs = gatedTimeout(call.gate, this.opts.timeoutMs);
      // Made before the exchange: a value that cannot be sent (a lone surrogate in a query, a
      // BigInt in a body) fails this request alone, not as the network's failure, and its slot of
      // the budget is given back (else the next request waited for it forever).
      path = pathOf(this.basePath, call);
      body = call.body === undefined ? undefined : JSON.stringify(call.body);
    } catch (error) {
      this.budget.release();
      throw error;
    }
    const started = Date.now();
    // A request without a body shares one headers object (undici only reads it).
    const headers =
      body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' };
    const deadlineAt = performance.now() + timeoutMs;
    // The budget counts the start again when the request is written (decision 43).
    const exchange = new Attempt(
      this.opts.maxResponseBytes,
      requestDeadline(timeoutMs),
      this.writes,
      call.priority > 0,
    );
    let bytes: Buffer;
    try {
      bytes = await exchange.send(this.agent, {
        origin: this.origin,
        path,
        method: call.method,
        headers,
        body,
      });
    } catch (error) {
      throw this.failed(call, exchange, error, started, { deadlineMs: timeoutMs, deadlineAt });
    } finally {
      exchange.deadline.clear();
      exchange.over();
    }
    const { statusCode: status, headers: answer, sentAt } = exchange;
    // The server took it an answer's shortest time before it came, at the latest (its count then is
    // what `Remaining` says).
    this.budget.release(answer, sentAt, Date.now() - this.rtt.value);
    // From the write: the wait for it (a busy event loop's) is not the API's latency.
    this.adapt(Date.now() - (sentAt ?? started));
    this.opts.observer.budget?.(this.budget.remaining, this.budget.limit);
    this.opts.observer.request?.(call.method, call.route, status, Date.now() - started);
    // An unexpected answer is the error it is (a 429 pauses the budget).
    if (!call.expect.includes(status)) throw this.refused(call, status, answer, bytes);
    if (bytes.length === 0) return { status, body: undefined };
    // While a chained page is under way, its answer goes before this one (`later`).
    if (!call.priority && this.chained > 0) await this.later();
    // The page after this one, named in its bytes, was just asked for: its request is written
    // (undici writes on a kept-alive socket at the event loop's check phase) before this answer
    // is parsed, not 2–5 ms after it (decision 43's eighth pass).
    else if (call.peek?.(status, bytes)) await afterThisTurn();
    return { status, body: parsedAnswer(call, status, bytes) };
  }

  /** The error of an attempt whose exchange failed, before the answer's headers or while its body came. */
  private failed(
    call: Call,
    exchange: Attempt,
    error: unknown,
    started: number,
    deadline: { deadlineMs: number; deadlineAt: number },
  ): ApiError {
    const { answered, sentAt } = exchange;
    if (answered) this.budget.release(exchange.headers, sentAt, Date.now() - this.rtt.value);
    else this.budget.release(undefined, sentAt);
    this.opts.observer.request?.(call.method, call.route, 'error', Date.now() - started);
    // Before the answer's headers: the request may not have reached the server.
    if (!answered) return this.transportError(call, error, false, exchange.deadline, deadline);
    if (error instanceof AnswerTooLargeError)
      return new ApiError({
        code: 'invalid-response',
        method: call.method,
        route: call.route,
        status: exchange.statusCode,
        apiMessage: error.message,
        sent: true,
        cause: error,
      });
    return this.transportError(call, error, true, exchange.deadline, deadline);
  }

  /** The error an unexpected answer is; a 429 pauses the budget. */
  private refused(call: Call, status: number, headers: AnswerHeaders, bytes: Buffer): ApiError {
    if (status === 429) {
      const retryAfter = Number(headers['retry-after']);
      // The pause is slept by the requests' next turn for a slot, which reports it (`nextSlot`).
      this.budget.pause(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
    }
    return refusal(call, status, bytes);
  }

  /**
   * Little's law: a server that allows `limit` requests per window is kept busy by limit / window ×
   * latency requests in flight, between `concurrency` and `maxConcurrency`; without a known limit
   * and window, `concurrency`. The latency is the shortest of the recent attempts, twice over (as
   * BBR sizes its window from the minimum round trip), each timed from when its request was
   * written: an attempt's time also counts the wait for this process's own event loop, and when
   * the client is busy that wait grows without more requests in flight helping (decision 43). The
   * pacer still decides when each request starts; this only lets enough of them wait for answers.
   */
  private adapt(ms: number): void {
    const { concurrency, maxConcurrency } = this.opts;
    if (maxConcurrency <= concurrency) return;
    const shortest = this.rtt.observe(ms);
    const { limit, windowMs } = this.budget;
    const wanted =
      limit !== null && windowMs !== null && windowMs > 0
        ? Math.ceil((limit / windowMs) * shortest * 2)
        : concurrency;
    const target = Math.min(maxConcurrency, Math.max(concurrency, wanted));
    if (target === this.concurrency) return;
    this.concurrency = target;
    this.pump();
  }

  private transportError(
    req: HttpRequest,
    error: unknown,
    afterHeaders: boolean,
    signal: DeadlineSignal,
    deadline: { deadlineMs: number; deadlineAt: number },
  ): ApiError {
    if (signal.aborted && signal.reason instanceof DeadlineError)
      return new ApiError({
        code: 'timeout',
        method: req.method,
        route: req.route,
        apiMessage: signal.reason.message,
        sent: true,
        ...deadline,
        cause: error,
      });
    const code = (error as { code?: string }).code ?? '';
    const timeout =
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      code === 'UND_ERR_CONNECT_TIMEOUT';
    const sent = afterHeaders || !NOT_SENT.has(code);
    return new ApiError({
      code: timeout ? 'timeout' : 'network',
      method: req.method,
      route: req.route,
      apiMessage: NOT_SENT.has(code)
        ? `cannot connect to ${hostAndPort(this.origin)} (${code})`
        : code || (error as Error).message,
      sent,
      ...(timeout ? deadline : {}),
      cause: error,
    });
  }
}

/**
 * The API's `/v1` URL from `--api-url`: with or without a trailing `/v1` and trailing slashes
 * (the emulator prints its address as `…/v1`).
 */
export function apiBase(apiUrl: string): string {
  const bare = apiUrl.replace(/\/+$/, '');
  return /\/v1$/i.test(bare) ? bare.replace(/\/v1$/i, '/v1') : `${bare}/v1`;
}

/** `host:port` of an origin, the port spelled out even when it is the scheme's default. */
export function hostAndPort(origin: string): string {
  const url = new URL(origin);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The API's error message, from `{ error: { message } }`, cut to a sane length. */
function apiMessage(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    const message = parsed.error?.message;
    if (typeof message === 'string') return message.slice(0, 500);
  } catch {
    // not JSON: fall through
  }
  return text ? text.slice(0, 200) : undefined;
}

/** The request's path on the server, with its query (undefined values left out). */
function pathOf(basePath: string, req: HttpRequest): string {
  let path = `${basePath}${req.path}`;
  let sep = '?';
  if (req.query)
    for (const k in req.query) {
      const v = req.query[k];
      if (v === undefined) continue;
      path += `${sep}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
      sep = '&';
    }
  return path;
}

const noop = (): void => undefined;

/** The requests written, and the waits for the next (`HttpClient.written`). */
class Writes {
  /** Chained requests handed to undici and not written yet (`HttpClient.nextLater`). */
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
class Attempt extends Exchange {
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
function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** An expected answer's body, parsed; an answer that is not JSON is the API's error, not ours. */
function parsedAnswer(req: HttpRequest, status: number, bytes: Buffer): unknown {
  try {
    return JSON.parse(jsonText(bytes)) as unknown;
  } catch (error) {
    throw new ApiError({
      code: 'invalid-response',
      method: req.method,
      route: req.route,
      status,
      apiMessage: 'the answer is not valid JSON',
      sent: true,
      cause: error,
    });
  }
}

/** The error an unexpected status is (a 429 was not taken by the server: it may be sent again). */
function refusal(req: HttpRequest, status: number, bytes: Buffer): ApiError {
  return new ApiError({
    code: codeForStatus(status),
    method: req.method,
    route: req.route,
    status,
    apiMessage: apiMessage(bytes.toString('utf8')),
    sent: status !== 429,
  });
}
