import type { AnswerReader, HttpMethod, HttpRequest, HttpResponse } from './request.js';
import type { LaneTask } from './lane-queue.js';
import type { WriteGate } from './write-gate.js';

/**
 * One call of `HttpClient.send`, from when it is queued until its caller's promise settles: the
 * request in one shape (every field, in one order, whatever its caller wrote: the client's hot
 * paths met requests of several shapes and were deoptimized at each new one), the queue's task
 * (its lane), the retries' count, and what settles the caller's promise.
 *
 * One object per call where there were ten (the request copied into one shape, the queue's options,
 * its task, a run closure and its holder of the promise's functions, the closures that ended it):
 * a plan queues thousands of reads at once, and what each holds while it waits survives scavenges
 * into the old generation (decision 42's fourteenth pass).
 */
export class Call implements HttpRequest, LaneTask {
  readonly method: HttpMethod;
  readonly path: string;
  readonly route: string;
  readonly query: HttpRequest['query'];
  readonly body: unknown;
  readonly expect: readonly number[];
  readonly create: boolean;
  readonly priority: number;
  /** Reads of one route wait in one lane; writes share one lane, in the order they are sent. */
  readonly lane: string;
  /** The queue's task id (p-queue's; the client sets none). */
  readonly id: string | undefined = undefined;
  /** The call queued after it in its lane, while it waits (the lane queue's link). */
  laneNext: LaneTask | undefined = undefined;
  // The retries' state (`HttpClient.run`).
  attempts = 0;
  timeouts = 0;
  rateWaits = 0;
  sentBefore = false;
  /** When it left the queue (`HttpClient.run`): its retries' time counts from there. */
  started = 0;
  /** Makes what the caller keeps of the answer (`HttpClient.send`); dropped once settled. */
  private reader: AnswerReader<unknown> | undefined;
  private resolve: (value: unknown) => void = dropped;
  private reject: (error: unknown) => void = dropped;

  constructor(
    req: HttpRequest,
    reader: AnswerReader<unknown> | undefined,
    /** The write gate of the context that sent it (src/api/write-gate.ts). */
    readonly gate: WriteGate | undefined,
  ) {
    this.method = req.method;
    this.path = req.path;
    this.route = req.route;
    this.query = req.query;
    this.body = req.body;
    this.expect = req.expect;
    this.create = req.create ?? false;
    this.priority = req.priority ?? 0;
    this.lane = req.method === 'GET' ? req.route : '';
    this.reader = reader;
  }

  /** Its reader's look at an expected answer's bytes before they are parsed (`AnswerReader.peek`). */
  peek(status: number, bytes: Buffer): boolean {
    return this.reader !== undefined && this.reader.peek(status, bytes);
  }

  /** The answer: made into its reader's, when given (what `read` throws is the caller's error). */
  answer(res: HttpResponse): void {
    const { reader, resolve, reject } = this;
    this.settled();
    if (!reader) return resolve(res);
    let value: unknown;
    try {
      value = reader.read(res);
    } catch (error) {
      return reject(error);
    }
    resolve(value);
  }

  fail(error: unknown): void {
    const { reject } = this;
    this.settled();
    reject(error);
  }

  /**
   * Lets go of what settles the caller's promise (and of `shape`): undici keeps up to 256 finished
   * requests per connection (their handlers, which name the call) until it compacts its queue.
   */
  private settled(): void {
    this.reader = undefined;
    this.resolve = dropped;
    this.reject = dropped;
  }

  /** For `promiseOf`: the executor, one function for every call (no closure made per call). */
  static take(call: Call, resolve: (value: unknown) => void, reject: (error: unknown) => void): void {
    call.resolve = resolve;
    call.reject = reject;
  }
}

const dropped = (): void => undefined;

/** The reader of a caller that gave `HttpClient.send` a function: it makes the value, and peeks at nothing. */
export class ShapeReader<T> implements AnswerReader<T> {
  constructor(private readonly shape: (res: HttpResponse) => T) {}
  read(res: HttpResponse): T {
    return this.shape(res);
  }
  peek(): boolean {
    return false;
  }
}

/** The caller's promise of `call` (made once, when the call is made). */
export function promiseOf(call: Call): Promise<unknown> {
  making = call;
  const promise = new Promise<unknown>(takeSettlers);
  making = undefined;
  return promise;
}

/** The call whose promise is being made (`promiseOf`). */
let making: Call | undefined;
function takeSettlers(resolve: (value: unknown) => void, reject: (error: unknown) => void): void {
  Call.take(making!, resolve, reject);
}
