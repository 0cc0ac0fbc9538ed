import type { IncomingMessage, ServerResponse } from 'node:http';
import { findLabel, recordWrite, type ServedWrite } from './audit.js';
import { HttpError } from './errors.js';
import { answerOf, errorAnswer, hasBody, readBody, write, type Answer } from './http-io.js';
import { performance } from 'node:perf_hooks';
import type { RouteResult } from './router.js';
import { NO_ANSWER, served, type Hold, type RequestLogEntry, type Running } from './running.js';
import type { EmulatorState } from './state.js';

const DEFAULT_LIMIT = 100_000;

type Finish = (status: number, body?: unknown) => void;
type Limit = ReturnType<NonNullable<Running['window']>['take']> | null;
type Read = { raw: string; error: HttpError | null };
type Match = Exclude<ReturnType<Running['router']['match']>, null | 'method'>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One request to the API under `/v1`, in stages: logged, rate-limited, body read, held, delayed,
 * refused (token, rate limit, injected fault) or routed and served.
 */
export async function serveApi(
  run: Running,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const arrived = performance.now();
  const method = req.method ?? 'GET';
  const entry = logRequest(run, req, res, url, method);
  const limit = takeRate(run, res);
  // The body is read first: a client that gives up while the answer is delayed has still sent
  // its request, and the emulator still processes it, as a real server would.
  // A request without a body (every GET) has nothing to wait for: no listeners, no extra tick.
  const read = hasBody(req) ? await readRequestBody(req) : { raw: '', error: null };
  const held = run.hold && method !== 'GET' ? passHold(run.hold) : null;
  if (held) await held;
  const delay = latencyFor(run, method);
  if (delay > 0) entry.delayMs = delay;
  // A read (without faults to roll) is served at once and its answer written when its latency is
  // up: the time the emulator takes to make an 80 kB answer is then within the latency it drew, not
  // added to it. A write is served after its latency, as before.
  const ahead = delay > 0 && method === 'GET' && !faultApplies(run, method);
  const finish = ahead ? finishAt(res, entry, arrived + delay) : finishNow(res, entry);
  if (delay > 0 && !ahead) await sleep(delay);
  // Made at the end of this turn: the requests that came with it are logged and counted (their
  // latency starts) first, not each after the answers made before it (80 kB for a sections page).
  if (ahead) await new Promise<void>((resolve) => setImmediate(resolve));
  if (refused(run, req, res, limit, finish)) return;
  const fault = rollFault(run, req, res, method, entry, finish);
  if (fault === 'answered') return;
  answer(run, req, url, read, { method, entry, finish, resetAfter: fault === 'reset-after' });
}

/** The answer's `Finish`: made and written now. */
function finishNow(res: ServerResponse, entry: RequestLogEntry): Finish {
  return (status, body) => writeLogged(res, entry, status, made(status, body));
}

/**
 * The answer's `Finish`: made now, written at `due` (by `performance.now()`), or at once when that
 * has passed. Its status is logged when it is written, or when the client goes away first: the
 * timer goes with the connection (nothing is left to fire after it), the log says `sent: false`.
 */
function finishAt(res: ServerResponse, entry: RequestLogEntry, due: number): Finish {
  return (status, body) => {
    const answer = made(status, body);
    const wait = due - performance.now();
    if (wait < 1 || res.destroyed) return writeLogged(res, entry, status, answer);
    const timer = setTimeout(() => writeLogged(res, entry, status, answer), wait);
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableEnded) notSent(entry, status);
    });
  };
}

/**
 * Write the answer and log its status; when the connection has closed already (the client went
 * away while the request was held, delayed or served), log the status made, not sent.
 */
function writeLogged(res: ServerResponse, entry: RequestLogEntry, status: number, answer: Answer): void {
  if (res.destroyed) return notSent(entry, status);
  entry.status = status;
  write(res, answer);
}

/** A request served whose answer was never written: its status as made, and `sent: false`. */
function notSent(entry: RequestLogEntry, status: number): void {
  entry.status = status;
  entry.sent = false;
}

/** What `Finish` writes: an error status's `{ message }` as the API's error body. */
function made(status: number, body: unknown): Answer {
  return body !== undefined && status >= 400
    ? errorAnswer(status, String((body as { message: string }).message))
    : answerOf(status, body);
}

function logRequest(
  run: Running,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  method: string,
): RequestLogEntry {
  const entry: RequestLogEntry = {
    method,
    path: url.pathname,
    query: url.search,
    status: 0,
    at: new Date().toISOString(),
    ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
  };
  run.log.push(entry);
  res.once('close', () => {
    entry.finishedAt = new Date().toISOString();
    // Closed before an answer was written: the client went away first (or a reset fault dropped
    // it). A status already made stays (a delayed answer's own handler logs its made status).
    if (!res.writableEnded) {
      entry.sent = false;
      if (entry.status === 0) entry.status = NO_ANSWER;
    }
  });
  return entry;
}

/** Take one request from the rate window and announce the budget left (unless the window says not to). */
function takeRate(run: Running, res: ServerResponse): Limit {
  const window = run.window;
  const limit = window ? window.take(Date.now()) : null;
  if (!window || window.headers) {
    res.setHeader('X-RateLimit-Limit', String(limit ? window!.limit : DEFAULT_LIMIT));
    res.setHeader('X-RateLimit-Remaining', String(limit ? limit.remaining : DEFAULT_LIMIT));
    res.setHeader(
      'X-RateLimit-Reset',
      String(limit ? limit.resetEpochSeconds : Math.ceil(Date.now() / 1000) + 60),
    );
    if (window) res.setHeader('RateLimit-Policy', `${window.limit};w=${window.windowMs / 1000}`);
  }
  return limit;
}

async function readRequestBody(req: IncomingMessage): Promise<Read> {
  try {
    return { raw: await readBody(req), error: null };
  } catch (error) {
    return {
      raw: '',
      error: error instanceof HttpError ? error : new HttpError(400, 'request body could not be read'),
    };
  }
}

/** Let a write pass the hold, or count it as waiting: the promise it must wait for, if any. */
function passHold(current: Hold): Promise<void> | null {
  if (current.pass > 0) {
    current.pass -= 1;
    return null;
  }
  current.waiting += 1;
  return current.released;
}

/** The latency the faults add to this request (`latencyMs` ± `latencyJitterMs`), 0 when none. */
function latencyFor(run: Running, method: string): number {
  const { faults, random } = run;
  const delayed =
    (faults.latencyMethods === undefined || faults.latencyMethods.includes(method)) &&
    (faults.latencyRate === undefined || random() < faults.latencyRate);
  const jitter = delayed && faults.latencyJitterMs > 0 ? (random() * 2 - 1) * faults.latencyJitterMs : 0;
  return delayed ? Math.max(0, faults.latencyMs + jitter) : 0;
}

/** Answer 401 without the token, 429 past the rate limit: whether the request was refused. */
function refused(
  run: Running,
  req: IncomingMessage,
  res: ServerResponse,
  limit: Limit,
  finish: Finish,
): boolean {
  if (req.headers.authorization !== `Bearer ${run.token}`) {
    finish(401, { message: 'Unauthorized: a valid bearer token is required' });
    return true;
  }
  if (limit && !limit.allowed) {
    res.setHeader('Retry-After', String(limit.retryAfterSeconds));
    finish(429, { message: 'Too many requests: rate limit exceeded' });
    return true;
  }
  return false;
}

/**
 * An injected fault, when the dice say so: an error status or a connection reset now
 * (`answered`), or a reset after the request is served (`reset-after`).
 */
function rollFault(
  run: Running,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  entry: RequestLogEntry,
  finish: Finish,
): 'none' | 'answered' | 'reset-after' {
  const faults = run.faults;
  if (!(faultApplies(run, method) && run.random() < faults.rate)) return 'none';
  if (faults.resetConnections && run.random() < 0.5) {
    if (run.random() >= 0.5) return 'reset-after';
    entry.status = NO_ANSWER;
    req.socket.destroy();
    return 'answered';
  }
  const status = faults.statuses[Math.floor(run.random() * faults.statuses.length)] ?? 500;
  if (status === 429) res.setHeader('Retry-After', String(faults.retryAfterSeconds));
  finish(status, { message: `Injected fault ${status}` });
  return 'answered';
}

/** Whether the injected faults may hit a request of this method (the dice are rolled). */
function faultApplies(run: Running, method: string): boolean {
  const faults = run.faults;
  return faults.rate > 0 && (!faults.methods || faults.methods.includes(method));
}

type Answering = { method: string; entry: RequestLogEntry; finish: Finish; resetAfter: boolean };

/** Parse the body, route the request and serve it (a write through the memo, then persisted). */
function answer(run: Running, req: IncomingMessage, url: URL, read: Read, a: Answering): void {
  const { method, entry, finish } = a;
  if (read.error) return finish(read.error.status, { message: read.error.message });
  let body: unknown;
  try {
    body = read.raw.length > 0 ? JSON.parse(read.raw) : undefined;
  } catch {
    return finish(400, { message: 'request body is not valid JSON' });
  }
  if (body !== undefined) entry.body = body;
  const match = run.router.match(method, url.pathname.slice('/v1'.length) || '/');
  if (match === null) return finish(404, { message: `no route for ${method} ${url.pathname}` });
  if (match === 'method') return finish(405, { message: `method ${method} not allowed on ${url.pathname}` });
  try {
    const result = served(run, method, () => serveMatch(run, req, url, method, match, body));
    if (a.resetAfter) {
      // Served, then the connection dropped: the log keeps what was done, never sent.
      notSent(entry, result.status);
      req.socket.destroy();
      return;
    }
    finish(result.status, result.body);
  } catch (error) {
    if (goneDelete(run, error, method)) return finish(204);
    if (error instanceof HttpError) return finish(error.status, { message: error.message });
    return finish(500, { message: `internal emulator error: ${(error as Error).message}` });
  }
}

/** Run the route's handler; a lost write (`ignoreWrites`) answers and puts the state back. */
function serveMatch(
  run: Running,
  req: IncomingMessage,
  url: URL,
  method: string,
  match: Match,
  body: unknown,
): RouteResult {
  const ignoreWrites = run.faults.ignoreWrites;
  const ignored =
    method !== 'GET' &&
    ignoreWrites != null &&
    (ignoreWrites.path === undefined || url.pathname.includes(ignoreWrites.path));
  const before = ignored ? structuredClone(run.state) : undefined;
  // Handlers check everything before they change anything, so a failed request changes nothing.
  // The audit log is today's API's (GET …/audit-events): api.md's emulator keeps none.
  const write =
    method !== 'GET' && run.flavor === 'current' ? servedWrite(req, method, match, run.state) : undefined;
  const result = match.handler({ params: match.params, query: url.searchParams, body });
  // A lost write: the answer says it happened, the state says it did not.
  if (before !== undefined) run.state = before;
  if (write && result.status < 400) recordWrite(run.state, { ...write, answer: result.body });
  return result;
}

/** Today's API answers a DELETE of something that does not exist with 204 ("did not exist"). */
export function goneDelete(run: Running, error: unknown, method: string): boolean {
  return (
    error instanceof HttpError && error.status === 404 && method === 'DELETE' && run.flavor === 'current'
  );
}

/** What the audit log needs of a write, known before it runs (a deleted object's label). */
function servedWrite(
  req: IncomingMessage,
  method: string,
  match: { params: Record<string, string>; template: string },
  state: EmulatorState,
): Omit<ServedWrite, 'answer'> {
  const header = req.headers['x-emulator-actor'];
  const actor = typeof header === 'string' && header.length > 0 ? header : undefined;
  const parts = match.template.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  const org = state.organizations.find((o) => o.id === match.params['orgId']);
  const id = last.startsWith(':') ? match.params[last.slice(1)] : undefined;
  const labelBefore = method === 'DELETE' && org && id ? findLabel(org, id) : undefined;
  return {
    method,
    template: match.template,
    params: match.params,
    ...(actor ? { actor } : {}),
    ...(labelBefore ? { labelBefore } : {}),
  };
}
