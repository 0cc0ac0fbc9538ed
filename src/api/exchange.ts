import type { Dispatcher } from 'undici';
import { AnswerTooLargeError } from './bounded-body.js';
import { answerHeaders, NO_HEADERS, type AnswerHeaders } from './answer-headers.js';

/** What the API client sends: undici's dispatch options without a signal (the exchange stops itself, `stop`). */
export type ExchangeRequest = {
  origin: string;
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
};

/**
 * One request and its whole answer, read by a dispatch handler of our own (undici's handler
 * interface, as undici's `request` gives its dispatcher), for the API client's many small answers.
 *
 * undici's `request` wraps each answer in a `Readable` (its state, events, `nextTick`s and one
 * more promise), run in an async resource's scope; the client then read that stream into one
 * buffer. Here the chunks are kept as they come and the promise settles once, with the bytes: the
 * same requests, answers and errors (issue 33, decision 42's ninth pass).
 *
 * - `sent` is called when undici writes the request to its socket (`onConnect`, as `Sent` did
 *   for `request`: the rate budget counts a start then, decision 43); a subclass hears it.
 * - `stop` aborts the exchange with its reason, before or after the answer's headers (the reason
 *   is what the promise rejects with, as with `request` and its body stream): an attempt's
 *   deadline (`Attempt`).
 * - An answer over `maxBytes` (by its declared length, or as it arrives) rejects with
 *   `AnswerTooLargeError` and drops the connection; nothing more of it is kept.
 * - `answered` tells a failure after the headers (the request reached the server) from one before.
 */
export class Exchange {
  /** The answer's status and headers, once they came. */
  statusCode = 0;
  /** The headers the client reads (`answerHeaders`). */
  headers: AnswerHeaders = NO_HEADERS;
  answered = false;
  /**
   * The answer's first chunk (most answers are one), and all of them once a second came: no array
   * made for a one-chunk answer, nor one to let go of the chunks (two an attempt before).
   */
  private first: Buffer | undefined = undefined;
  private chunks: Buffer[] | undefined = undefined;
  private size = 0;
  private abort: ((reason?: Error) => void) | undefined;
  private reason: unknown;
  private settled = false;
  private resolve!: (bytes: Buffer) => void;
  private reject!: (error: unknown) => void;

  constructor(private readonly maxBytes: number) {}

  /** Send the request; settles with the answer's body (its status and headers are on the exchange). */
  send(dispatcher: Dispatcher, req: ExchangeRequest): Promise<Buffer> {
    const done = promiseOf(this);
    dispatcher.dispatch(req, this as unknown as Dispatcher.DispatchHandler);
    return done;
  }

  /** For `send`: the functions that settle its promise. */
  static take(exchange: Exchange, resolve: (bytes: Buffer) => void, reject: (error: unknown) => void): void {
    exchange.resolve = resolve;
    exchange.reject = reject;
  }

  // undici's (legacy) handler interface, which its core calls directly.

  onConnect(abort: (reason?: Error) => void): void {
    if (this.reason !== undefined) {
      abort(this.reason as Error);
      return;
    }
    this.abort = abort;
    this.sent();
  }

  /** The request is being written to its socket (a subclass hears it without a closure per exchange). */
  protected sent(): void {}

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An informational answer (1xx): the real one follows.
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    const headers = answerHeaders(rawHeaders);
    this.headers = headers;
    this.answered = true;
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) this.tooLarge();
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.tooLarge();
      return true;
    }
    if (this.first === undefined) this.first = chunk;
    else if (this.chunks === undefined) this.chunks = [this.first, chunk];
    else this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    const { first, chunks, size, resolve } = this;
    this.finish();
    resolve(chunks !== undefined ? Buffer.concat(chunks, size) : (first ?? Buffer.concat(NO_CHUNKS, 0)));
  }

  onError(error: Error): void {
    if (this.settled) return;
    const { reject } = this;
    this.finish();
    reject(error);
  }

  private tooLarge(): void {
    const { abort, reject } = this;
    this.finish();
    reject(new AnswerTooLargeError(this.maxBytes));
    abort?.();
  }

  /** Abort with `reason` (now, or when undici is about to write the request). */
  protected stop(reason: unknown): void {
    if (this.settled) return;
    this.reason = reason;
    this.abort?.(reason as Error);
  }

  /**
   * Settled: the exchange lets go of the functions that settle its promise. undici
   * keeps up to 256 finished requests per connection (and their handlers) until it compacts its
   * queue; an exchange that kept them would keep its promise, and so the answer, as long.
   */
  private finish(): void {
    this.settled = true;
    this.first = undefined;
    this.chunks = undefined;
    this.resolve = dropped;
    this.reject = dropped;
    this.abort = undefined;
  }
}

/** The promise `exchange.send` returns: one executor for every exchange (no closure made per request). */
function promiseOf(exchange: Exchange): Promise<Buffer> {
  sending = exchange;
  const promise = new Promise<Buffer>(takeSettlers);
  sending = undefined;
  return promise;
}

/** The exchange whose promise is being made (`promiseOf`). */
let sending: Exchange | undefined;
function takeSettlers(resolve: (bytes: Buffer) => void, reject: (error: unknown) => void): void {
  Exchange.take(sending!, resolve, reject);
}

const dropped = (): void => undefined;

/** The chunks of an answer without a body (its bytes: an empty buffer, as `Buffer.concat` of none gives). */
const NO_CHUNKS: readonly Buffer[] = [];
