import { AnswerTooLargeError, type DeadlineError } from './bounded-body.js';
import type { Call } from './call.js';
import { ApiError } from './errors.js';
import { gatedTimeout } from './write-gate.js';
import { Agent, errors as undiciErrors } from './undici.js';
import type { AnswerHeaders } from './answer-headers.js';
import { registerSecret } from '../secrets/registry.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './limits.js';
import { apiBase, hostAndPort, pathOf } from './api-url.js';
import { Attempt, afterThisTurn } from './attempt.js';
import { parsedAnswer, refusal } from './answer-body.js';
import type { HttpObserver, HttpOptions } from './http-options.js';
import { HttpPacing } from './http-pacing.js';

import type { HttpRequest, HttpResponse } from './request.js';

export type { AnswerReader, HttpMethod, HttpRequest, HttpResponse } from './request.js';

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
 * retries with exponential backoff and full jitter, and typed errors. The queue and the rate
 * budget's waits are its base class's (`HttpPacing`, src/api/http-pacing.ts).
 */
export class HttpClient extends HttpPacing {
  private readonly agent: InstanceType<typeof Agent>;
  private readonly origin: string;
  private readonly basePath: string;
  protected readonly opts: Required<Omit<HttpOptions, 'observer' | 'maxConcurrency'>> & {
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
   * Attempts of any request that failed in a row with no answer from the API (refused, timed out):
   * `count` (`timeouts`) since `since`; they judge an unreachable API. `after`: attempts started
   * when the last was counted (`countStreak`).
   */
  private streak: { count: number; timeouts: number; since: number; after: number } | undefined;
  /** Attempts started so far: an attempt's number orders it against the streak's failures. */
  private attemptsStarted = 0;
  /** The headers of every request (a body adds its type). */
  private readonly headers: Record<string, string>;

  constructor(options: HttpOptions) {
    super();
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

  /** Wait for every queued call, then close connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pending > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.agent.close();
  }

  /** The error the API was found unreachable with, while that judgement holds (`gaveUp`). */
  protected unreachable(): ApiError | undefined {
    return this.gaveUp && Date.now() < this.gaveUp.until ? this.gaveUp.error : undefined;
  }

  /**
   * Run a call with the retry policy and settle its caller's promise: with the answer (made into
   * `shape`'s, when given, once the retries are over: what it throws is the caller's), or the error.
   * Never rejects.
   */
  protected async run(call: Call): Promise<void> {
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
        // Numbered before any answer: failures in flight together count once (`countStreak`).
        const round = this.budget.hasAnswered ? undefined : this.attemptsStarted++;
        let res: HttpResponse;
        try {
          res = await this.attempt(call);
          this.gaveUp = undefined;
          this.streak = undefined;
        } catch (error) {
          const pause = this.retryAfter(call, error, attemptStarted, round);
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
  private retryAfter(
    call: Call,
    error: unknown,
    attemptStarted: number,
    round: number | undefined,
  ): number | undefined {
    if (!(error instanceof ApiError)) throw error;
    const streak = this.countStreak(error, attemptStarted, round);
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

  /**
   * Count a failed attempt toward the streak (transport failures), or end it (any answer). One
   * started before any answer (`round`, its number) counts only if it started after the last
   * counted failure: the first requests (`FIRST_REQUESTS`), in flight together, that fail together
   * are one failure, as when one request probed alone. After the first answer each failure counts:
   * reads in flight that time out together when the network drops judge it at once (decision 43).
   */
  private countStreak(
    error: ApiError,
    attemptStarted: number,
    round: number | undefined,
  ): HttpClient['streak'] {
    if (error.status !== undefined || (error.code !== 'network' && error.code !== 'timeout'))
      return (this.streak = undefined);
    // A connection the server closed after the request went out (a kept-alive socket it had timed
    // out, typically, which a busy client reused with many open) says nothing about whether the
    // API is reachable: the request's own attempts judge it (decision 43).
    if (error.code === 'network' && error.sent) return this.streak;
    const streak = (this.streak ??= { count: 0, timeouts: 0, since: attemptStarted, after: 0 });
    if (round !== undefined && round < streak.after) return streak;
    streak.count += 1;
    if (error.code === 'timeout') streak.timeouts += 1;
    streak.after = this.attemptsStarted;
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
    const exchange = new Attempt(this.opts.maxResponseBytes, timeoutMs, this.writes, call.priority > 0);
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
      exchange.clearDeadline();
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
    else if (call.peek(status, bytes)) await afterThisTurn();
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
    if (!answered) return this.transportError(call, error, false, exchange.expired, deadline);
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
    return this.transportError(call, error, true, exchange.expired, deadline);
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

  private transportError(
    req: HttpRequest,
    error: unknown,
    afterHeaders: boolean,
    expired: DeadlineError | undefined,
    deadline: { deadlineMs: number; deadlineAt: number },
  ): ApiError {
    if (expired !== undefined)
      return new ApiError({
        code: 'timeout',
        method: req.method,
        route: req.route,
        apiMessage: expired.message,
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
