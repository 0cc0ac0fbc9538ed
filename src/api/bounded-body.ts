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

class Deadline implements RequestDeadline {
  aborted = false;
  reason: DeadlineError | undefined;
  /** Cleared (the attempt is over) or aborted: its list lets go of it. */
  done = false;
  private listeners: (() => void)[] = [];
  /** Its own timer, when it is in no list. */
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly timeoutMs: number,
    /** When it passes, by `performance.now()`. */
    readonly at: number,
    /** The list it is in (undefined: it has a timer of its own). */
    private readonly list: DeadlineList | undefined,
  ) {
    if (list) {
      list.add(this);
      return;
    }
    this.timer = setTimeout(expire, timeoutMs, this);
    this.timer.unref?.();
  }
  get signal(): DeadlineSignal {
    return this;
  }
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }
  clear(): void {
    if (this.done) return;
    this.done = true;
    this.listeners = [];
    if (this.list) this.list.cleared();
    else clearTimeout(this.timer);
  }
  expire(): void {
    if (this.done) return;
    this.done = true;
    this.abort(new DeadlineError(this.timeoutMs));
  }
  private abort(reason: DeadlineError): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

/**
 * The deadlines of one length, in the order they pass (the order they were made), under one
 * timer set for the first that has not been cleared: as Node keeps its timers of one duration in a
 * list, without a `Timeout` made, referenced, unreferenced and cleared per request (on a
 * request-heavy plan, thousands of attempts, each over long before its deadline).
 */
class DeadlineList {
  private readonly deadlines: Deadline[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When `timer` fires (it may be earlier than the first deadline's time: it then sets another). */
  private timerAt = Number.POSITIVE_INFINITY;

  add(deadline: Deadline): void {
    this.deadlines.push(deadline);
    if (this.timer === undefined) this.arm(deadline.at);
  }

  /** A deadline was cleared: those at the front that are over leave the list. */
  cleared(): void {
    this.drop();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    for (;;) {
      this.drop();
      const first = this.deadlines[this.head];
      if (!first) return;
      if (first.at > now) return this.arm(first.at);
      this.deadlines[this.head] = undefined as unknown as Deadline;
      this.head += 1;
      first.expire();
    }
  };

  private drop(): void {
    const { deadlines } = this;
    while (this.head < deadlines.length && deadlines[this.head]!.done) {
      deadlines[this.head] = undefined as unknown as Deadline;
      this.head += 1;
    }
    if (this.head === deadlines.length) {
      deadlines.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > deadlines.length) {
      deadlines.copyWithin(0, this.head);
      deadlines.length -= this.head;
      this.head = 0;
    }
  }

  private arm(at: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(at - performance.now())));
    this.timer.unref?.();
  }
}

const expire = (deadline: Deadline): void => deadline.expire();

/** The lists of deadlines, by length (the clients' timeouts). */
const lists = new Map<number, DeadlineList>();

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
 * `listed`: in the list of deadlines of its length, under one timer for all (the client's own
 * timeout, the same for thousands of attempts); otherwise (a write gate's shorter deadline, of any
 * length) with a timer of its own.
 */
export function requestDeadline(timeoutMs: number, listed = false): RequestDeadline {
  let list: DeadlineList | undefined;
  if (listed) {
    list = lists.get(timeoutMs);
    if (!list) lists.set(timeoutMs, (list = new DeadlineList()));
  }
  return new Deadline(timeoutMs, performance.now() + timeoutMs, list);
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
