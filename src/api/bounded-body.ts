import type { Dispatcher } from 'undici';
import { DocsyncError } from '../errors.js';

/** The answer was larger than the client accepts. */
export class AnswerTooLargeError extends DocsyncError<'answer-too-large'> {
  constructor(readonly maxBytes: number) {
    super('answer-too-large', `the answer is larger than ${maxBytes} bytes (--max-response-bytes)`);
    this.name = 'AnswerTooLargeError';
  }
}

/** The attempt's total deadline (headers and body together) passed. */
export class DeadlineError extends DocsyncError<'deadline'> {
  constructor(readonly timeoutMs: number) {
    super('deadline', `no complete answer within ${timeoutMs} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * The signal of an attempt's deadline: what undici needs of an `AbortSignal` (`aborted`, `reason`,
 * `addEventListener`/`removeEventListener`, decision 39), without an `AbortController` per request
 * (about 5 % of the per-request cost on a request-heavy plan).
 */
export type DeadlineSignal = {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
};

/** An attempt's deadline: its own signal, and `clear` once the attempt is over. */
export type RequestDeadline = DeadlineSignal & { readonly signal: DeadlineSignal; clear(): void };

/**
 * Its timer is Node's own: Node keeps the timers of one duration in one list under one native
 * timer, so thousands of attempts with the client's timeout cost one `Timeout` object each and
 * nothing more (a list of docsync's own measured no gain, decision 42's fourteenth pass).
 */
class Deadline implements RequestDeadline {
  aborted = false;
  reason: DeadlineError | undefined;
  /**
   * The first listener (an attempt's deadline has one, its exchange's), then those added after it,
   * in order: no array made, spliced and replaced an attempt (three, thousands a plan).
   */
  private first: (() => void) | undefined = undefined;
  private rest: (() => void)[] | undefined = undefined;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly timeoutMs: number) {
    this.timer = setTimeout(expire, timeoutMs, this);
    this.timer.unref?.();
  }
  get signal(): DeadlineSignal {
    return this;
  }
  addEventListener(_type: 'abort', listener: () => void): void {
    // Once there are later ones, the first slot stays empty when its listener leaves: the order holds.
    if (this.first === undefined && this.rest === undefined) this.first = listener;
    else (this.rest ??= []).push(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.first === listener) {
      this.first = undefined;
      return;
    }
    const i = this.rest ? this.rest.indexOf(listener) : -1;
    if (i >= 0) this.rest!.splice(i, 1);
  }
  clear(): void {
    clearTimeout(this.timer);
    this.first = undefined;
    this.rest = undefined;
  }
  expire(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DeadlineError(this.timeoutMs);
    const { first, rest } = this;
    this.first = undefined;
    this.rest = undefined;
    first?.();
    if (rest) for (const listener of rest) listener();
  }
}

/** A timer's callback, one for every deadline (no closure made per attempt). */
const expire = (deadline: Deadline): void => deadline.expire();

/**
 * A total deadline for one attempt: unlike undici's header and body timeouts, which restart on
 * every byte, it covers the whole exchange, so a server that trickles one byte at a time still
 * times out.
 */
export function attemptDeadline(timeoutMs: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineError(timeoutMs)), timeoutMs);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * The same deadline for the API client's many requests: its signal is for undici's `request`
 * only (which takes any object with `addEventListener`), cheaper than an `AbortController`.
 */
export function requestDeadline(timeoutMs: number): RequestDeadline {
  return new Deadline(timeoutMs);
}

/**
 * Read an answer's body as text, refusing (and dropping the connection) past `maxBytes` (see
 * `readBoundedBytes`).
 */
export async function readBoundedText(res: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  return (await readBoundedBytes(res, maxBytes)).toString('utf8');
}

/**
 * Read an answer's body, refusing (and dropping the connection) past `maxBytes`. Plain `data`
 * listeners, not `for await` (an async iterator costs promises per chunk), and no copy when the
 * answer came in one chunk.
 */
function readBoundedBytes(res: Dispatcher.ResponseData, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  const body = res.body;
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    return Promise.reject(new AnswerTooLargeError(maxBytes));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        body.destroy();
        reject(new AnswerTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    body.once('error', reject);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
  });
}
