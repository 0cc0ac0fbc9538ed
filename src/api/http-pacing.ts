import { Call, ShapeReader, promiseOf } from './call.js';
import type { ApiError } from './errors.js';
import type { HttpOptions } from './http-options.js';
import { Lanes } from './lane-queue.js';
import { RateBudget } from './rate-limit.js';
import { ShortestRecent } from './shortest-recent.js';
import { currentWriteGate } from './write-gate.js';
import type { AnswerReader, HttpRequest, HttpResponse } from './request.js';
import { Writes } from './attempt.js';

/** Chained requests (priority above 0) under way up to which one may run above the adaptive concurrency (`room`). */
const CHAINED_ABOVE = 4;

/**
 * The pacing of `HttpClient`'s requests (src/api/http.ts): which waiting request starts and when
 * (room within the adaptive concurrency, then a slot of the rate budget: the rate limit's waits), and
 * the turns in which answers are handled. What one request does, its retries and their deadlines,
 * are the client's (`run`, `unreachable`).
 */
export abstract class HttpPacing {
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
  protected concurrency!: number;
  /** Whether a slot is being waited for on behalf of `waiting`. */
  private pumping = false;
  /** Set by `pump` for the request it starts: its first slot is taken (`run` reads it at once). */
  protected granted = false;
  protected idle: (() => void)[] = [];
  /** The requests written, and those waiting for the next (`written`). */
  protected readonly writes: Writes;
  /** The last request's turn for a slot of the rate budget (the next waits for it). */
  private turn: Promise<void> = Promise.resolve();
  /** Requests waiting for a slot of the rate budget. */
  private pacing = 0;
  /** Ends the turn's sleep for a slot at once (`nap`), while one sleeps. */
  private wake: (() => void) | undefined;
  /** Requests of a priority above 0 (a list's next page, a leading list) sent and not settled. */
  protected chained = 0;
  /** The routes whose reads weigh more (or less) than 1 in the queue's turns (`shareRoute`). */
  private readonly shares = new Map<string, number>();
  /** Answers of priority 0 waiting for their turn while a chained request is under way (`later`). */
  private readonly answersLater: (() => void)[] = [];
  /** Whether `nextLater` let the last turn go to such a write (it does so once in a row). */
  private yielded = false;
  /** The shortest recent attempt (for the concurrency the rate limit allows). */
  protected readonly rtt = new ShortestRecent();

  /** The client's options that pace its requests (`HttpClient.opts`). */
  protected abstract readonly opts: Required<Pick<HttpOptions, 'concurrency' | 'observer'>> & {
    maxConcurrency: number;
  };

  protected constructor() {
    this.waiting = new Lanes<Call>(this.shares);
    this.writes = new Writes(this.budget);
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
  send<T>(req: HttpRequest, shape: ((res: HttpResponse) => T) | AnswerReader<T>): Promise<T>;
  send<T>(req: HttpRequest, shape?: ((res: HttpResponse) => T) | AnswerReader<T>): Promise<T | HttpResponse> {
    const reader = typeof shape === 'function' ? new ShapeReader(shape) : shape;
    // A write carries the gate of the context that asked for it (src/api/write-gate.ts).
    const call = new Call(req, reader, req.method === 'GET' ? undefined : currentWriteGate());
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
  protected later(): Promise<void> {
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

  /** The error the API was found unreachable with, while that judgement holds (`HttpClient.unreachable`). */
  protected abstract unreachable(): ApiError | undefined;

  private readonly ended = (): void => this.done();

  /** A request ended: start the next, or tell `close` that all are done. */
  private done(): void {
    this.running -= 1;
    this.pump();
    if (this.pending > 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
    this.writes.all();
  }

  /** Run a call with the retry policy and settle its caller's promise; never rejects (`HttpClient.run`). */
  protected abstract run(call: Call): Promise<void>;

  /**
   * Wait for the rate budget's next slot. Requests take slots in turn (one chain of promises): only
   * the first waits on a timer, instead of every running request waking up at each start to find
   * the slot taken (decision 43).
   */
  protected waitForBudget(): Promise<void> {
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

  /**
   * Little's law: a server that allows `limit` requests per window is kept busy by limit / window ×
   * latency requests in flight, between `concurrency` and `maxConcurrency`; without a known limit
   * and window, `concurrency`. The latency is the shortest of the recent attempts, twice over (as
   * BBR sizes its window from the minimum round trip), each timed from when its request was
   * written: an attempt's time also counts the wait for this process's own event loop, and when
   * the client is busy that wait grows without more requests in flight helping (decision 43). The
   * pacer still decides when each request starts; this only lets enough of them wait for answers.
   */
  protected adapt(ms: number): void {
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
}

const noop = (): void => undefined;
