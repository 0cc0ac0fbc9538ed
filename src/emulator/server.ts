import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { registerDeclared } from './declared.js';
import { HttpError } from './errors.js';
import { FaultConfig, RateWindow, seededRandom } from './faults.js';
import { Router } from './router.js';
import { registerAdmin } from './routes/admin.js';
import { registerCustomFields } from './routes/custom-fields.js';
import { registerOrganizations } from './routes/organizations.js';
import { registerSections } from './routes/sections.js';
import { registerSiteSpaces } from './routes/site-spaces.js';
import { registerStructure } from './routes/structure.js';
import { registerSites } from './routes/sites.js';
import { registerSiteFace } from './routes/site-face.js';
import { registerTeams } from './routes/teams.js';
import { registerTranslations } from './routes/translations.js';
import { stateFromSeed } from './seed.js';
import { registerInvites } from './routes/invites.js';
import { registerPermissions } from './routes/permissions.js';
import { registerRedirects } from './routes/redirects.js';
import { findLabel, recordWrite, registerAudit, type ServedWrite } from './audit.js';
import { jsonBytes } from './json-bytes.js';
import { Memo } from './memo.js';
import { makeShapes } from './shapes.js';
import { emptyState, type EmulatorState } from './state.js';

export type EmulatorOptions = {
  port?: number;
  host?: string;
  token?: string;
  seed?: unknown;
  dataFile?: string;
  rateLimit?: { limit: number; windowSeconds: number; model?: 'fixed' | 'sliding'; headers?: boolean };
  /** `seed` serves api.md; `current` serves today's API where the two differ (docs/compatibility.md). */
  flavor?: 'seed' | 'current';
};

export type RequestLogEntry = {
  method: string;
  path: string;
  query: string;
  status: number;
  at: string;
  /** The JSON body of a write, as received. */
  body?: unknown;
  /** The client's User-Agent (a daemon replica names itself there). */
  userAgent?: string;
  /** When the answer was sent (or the connection dropped): with `at`, when the request was in the server. */
  finishedAt?: string;
  /** The latency the emulator's faults added to this answer (`latencyMs` ± `latencyJitterMs`), when any. */
  delayMs?: number;
};

export type Emulator = {
  url: string;
  port: number;
  state: () => EmulatorState;
  requests: () => RequestLogEntry[];
  reset: (seed?: unknown) => void;
  /** The routes the emulator serves in its flavor (method and `/orgs/:orgId/...` template, no `/v1`). */
  routes: () => { method: string; template: string }[];
  setFaults: (faults: unknown) => void;
  /**
   * One API request answered in this process, without HTTP, faults or the request log (a test's
   * live model): the status and the JSON body the route answers, as the wire would carry them.
   */
  dispatch: (method: string, path: string, query?: URLSearchParams, body?: unknown) => DispatchResult;
  /**
   * Hold every write (any method but GET) before it is processed until `release()`: a test can
   * keep a writer mid-apply for as long as it needs, whatever the machine's load. The first
   * `after` writes (default none) pass: a writer can be stopped at its exact n-th write.
   */
  holdWrites: (after?: number) => WriteHold;
  close: () => Promise<void>;
};

export type DispatchResult = { status: number; body?: unknown };

export type WriteHold = { waiting: () => number; release: () => void };

const MAX_BODY = 1024 * 1024;
const DEFAULT_LIMIT = 100_000;

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  // Encoded once: the length and the bytes sent come from the same buffer.
  const bytes = jsonBytes(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
  });
  res.end(bytes);
}

function sendError(res: ServerResponse, status: number, message: string): void {
  send(res, status, { error: { code: status, message } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, 'request body too large'));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Whether the request has a body to read (RFC 9112 6.3: a length or a transfer coding). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

function isLoopback(address: string | undefined): boolean {
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address === '::ffff:127.0.0.1' ||
    (address?.startsWith('127.') ?? false)
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start the API emulator: a real HTTP server implementing api.md under `/v1`. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const token = options.token ?? 'dev-token';
  let state: EmulatorState = emptyState();
  if (options.dataFile && existsSync(options.dataFile)) {
    state = JSON.parse(readFileSync(options.dataFile, 'utf8')) as EmulatorState;
  } else if (options.seed !== undefined) {
    state = stateFromSeed(options.seed);
  }
  let log: RequestLogEntry[] = [];
  let faults: FaultConfig = FaultConfig.parse({ rateLimit: options.rateLimit ?? null });
  let random = Math.random;
  let window: RateWindow | null = options.rateLimit
    ? new RateWindow(
        options.rateLimit.limit,
        options.rateLimit.windowSeconds * 1000,
        options.rateLimit.model,
        options.rateLimit.headers,
      )
    : null;
  let baseUrl = '';
  let hold: { pass: number; waiting: number; released: Promise<void>; release: () => void } | null = null;

  const persist = () => {
    if (!options.dataFile) return;
    mkdirSync(dirname(options.dataFile), { recursive: true });
    const tmp = `${options.dataFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, options.dataFile);
  };

  const router = new Router();
  const flavor = options.flavor ?? 'seed';
  const memo = new Memo();
  const deps = {
    memo,
    state: () => state,
    shapes: makeShapes(() => baseUrl, flavor),
    router,
    flavor,
    baseUrl: () => baseUrl,
  };
  registerOrganizations(deps);
  registerTeams(deps);
  if (flavor === 'seed') registerCustomFields(deps);
  registerSites(deps);
  registerSiteFace(deps);
  registerSections(deps);
  registerSiteSpaces(deps);
  registerStructure(deps);
  registerDeclared(deps);
  registerAdmin(deps);
  registerTranslations(deps);
  if (flavor === 'current') registerAudit(deps);
  if (flavor === 'current') registerInvites(deps);
  if (flavor === 'current') registerPermissions(deps);
  if (flavor === 'current') registerRedirects(deps);

  const setFaults = (input: unknown) => {
    faults = FaultConfig.parse(input ?? {});
    random = faults.seed !== undefined ? seededRandom(faults.seed) : Math.random;
    window = faults.rateLimit
      ? new RateWindow(
          faults.rateLimit.limit,
          faults.rateLimit.windowSeconds * 1000,
          faults.rateLimit.model,
          faults.rateLimit.headers,
        )
      : null;
  };

  const reset = (seed?: unknown) => {
    state = seed === undefined || seed === null ? emptyState() : stateFromSeed(seed);
    memo.handedOut(false);
    log = [];
    persist();
  };

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress))
      return sendError(res, 403, 'control endpoints answer on loopback only');
    const raw = req.method === 'POST' ? await readBody(req) : '';
    const body = raw ? (JSON.parse(raw) as unknown) : undefined;
    if (req.method === 'GET' && path === '/_emulator/state') return send(res, 200, state);
    if (req.method === 'GET' && path === '/_emulator/requests') return send(res, 200, log);
    if (req.method === 'POST' && path === '/_emulator/reset') {
      reset(body);
      return send(res, 200, { ok: true });
    }
    if (req.method === 'POST' && path === '/_emulator/faults') {
      setFaults(body);
      return send(res, 200, faults);
    }
    return sendError(res, 404, `no control endpoint ${req.method} ${path}`);
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname.slice('/v1'.length) || '/';
    const entry: RequestLogEntry = {
      method,
      path: url.pathname,
      query: url.search,
      status: 0,
      at: new Date().toISOString(),
      ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
    };
    log.push(entry);
    res.once('close', () => (entry.finishedAt = new Date().toISOString()));
    const finish = (status: number, body?: unknown) => {
      entry.status = status;
      if (body !== undefined && status >= 400)
        sendError(res, status, String((body as { message: string }).message));
      else send(res, status, body);
    };

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

    // The body is read first: a client that gives up while the answer is delayed has still sent
    // its request, and the emulator still processes it, as a real server would.
    let raw = '';
    let bodyError: HttpError | null = null;
    try {
      // A request without a body (every GET) has nothing to wait for: no listeners, no extra tick.
      if (hasBody(req)) raw = await readBody(req);
    } catch (error) {
      bodyError = error instanceof HttpError ? error : new HttpError(400, 'request body could not be read');
    }
    if (hold && method !== 'GET') {
      const current = hold;
      if (current.pass > 0) current.pass -= 1;
      else {
        current.waiting += 1;
        await current.released;
      }
    }
    const delayed =
      (faults.latencyMethods === undefined || faults.latencyMethods.includes(method)) &&
      (faults.latencyRate === undefined || random() < faults.latencyRate);
    const jitter = delayed && faults.latencyJitterMs > 0 ? (random() * 2 - 1) * faults.latencyJitterMs : 0;
    const delay = delayed ? Math.max(0, faults.latencyMs + jitter) : 0;
    if (delay > 0) {
      entry.delayMs = delay;
      await sleep(delay);
    }
    if (req.headers.authorization !== `Bearer ${token}`)
      return finish(401, { message: 'Unauthorized: a valid bearer token is required' });
    if (limit && !limit.allowed) {
      res.setHeader('Retry-After', String(limit.retryAfterSeconds));
      return finish(429, { message: 'Too many requests: rate limit exceeded' });
    }
    const faultApplies = faults.rate > 0 && (!faults.methods || faults.methods.includes(method));
    const faultRoll = faultApplies && random() < faults.rate;
    let resetAfter = false;
    if (faultRoll) {
      if (faults.resetConnections && random() < 0.5) {
        if (random() < 0.5) {
          entry.status = -1;
          req.socket.destroy();
          return;
        }
        resetAfter = true;
      } else {
        const status = faults.statuses[Math.floor(random() * faults.statuses.length)] ?? 500;
        if (status === 429) res.setHeader('Retry-After', String(faults.retryAfterSeconds));
        return finish(status, { message: `Injected fault ${status}` });
      }
    }

    if (bodyError) return finish(bodyError.status, { message: bodyError.message });
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      return finish(400, { message: 'request body is not valid JSON' });
    }
    if (body !== undefined) entry.body = body;
    const match = router.match(method, path);
    if (match === null) return finish(404, { message: `no route for ${method} ${url.pathname}` });
    if (match === 'method')
      return finish(405, { message: `method ${method} not allowed on ${url.pathname}` });
    try {
      const ignored =
        method !== 'GET' &&
        faults.ignoreWrites != null &&
        (faults.ignoreWrites.path === undefined || url.pathname.includes(faults.ignoreWrites.path));
      const serve = () => {
        const before = ignored ? structuredClone(state) : undefined;
        // Handlers check everything before they change anything, so a failed request changes nothing.
        // The audit log is today's API's (GET …/audit-events): api.md's emulator keeps none.
        const write =
          method !== 'GET' && flavor === 'current' ? servedWrite(req, method, match, state) : undefined;
        const answer = match.handler({ params: match.params, query: url.searchParams, body });
        // A lost write: the answer says it happened, the state says it did not.
        if (before !== undefined) state = before;
        if (write && answer.status < 400) recordWrite(state, { ...write, answer: answer.body });
        return answer;
      };
      const result = method === 'GET' ? serve() : memo.write(serve);
      if (method !== 'GET') persist();
      if (resetAfter) {
        entry.status = -1;
        req.socket.destroy();
        return;
      }
      finish(result.status, result.body);
    } catch (error) {
      // Today's API answers a DELETE of something that does not exist with 204 ("did not exist").
      if (error instanceof HttpError && error.status === 404 && method === 'DELETE' && flavor === 'current')
        return finish(204);
      if (error instanceof HttpError) return finish(error.status, { message: error.message });
      return finish(500, { message: `internal emulator error: ${(error as Error).message}` });
    }
  }

  const dispatch = (
    method: string,
    path: string,
    query = new URLSearchParams(),
    body?: unknown,
  ): DispatchResult => {
    const fail = (status: number, message: string) => ({
      status,
      body: { error: { code: status, message } },
    });
    const match = router.match(method, path);
    if (match === null) return fail(404, `no route for ${method} /v1${path}`);
    if (match === 'method') return fail(405, `method ${method} not allowed on /v1${path}`);
    try {
      const serve = () => match.handler({ params: match.params, query, body });
      const result = method === 'GET' ? serve() : memo.write(serve);
      if (method !== 'GET') persist();
      return result.body === undefined
        ? { status: result.status }
        : { status: result.status, body: JSON.parse(JSON.stringify(result.body)) as unknown };
    } catch (error) {
      if (error instanceof HttpError && error.status === 404 && method === 'DELETE' && flavor === 'current')
        return { status: 204 };
      if (error instanceof HttpError) return fail(error.status, error.message);
      throw error;
    }
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.local');
    const handle = url.pathname.startsWith('/_emulator/')
      ? control(req, res, url.pathname)
      : url.pathname === '/v1' || url.pathname.startsWith('/v1/')
        ? api(req, res, url)
        : Promise.resolve(sendError(res, 404, `no route for ${req.method} ${url.pathname}`));
    handle.catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof HttpError) sendError(res, error.status, error.message);
      else sendError(res, 400, (error as Error).message);
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;
  persist();

  return {
    url: baseUrl,
    port: address.port,
    // The caller may change the live state in place from now on: nothing derived is kept any more.
    state: () => {
      memo.handedOut(true);
      return state;
    },
    requests: () => log,
    reset,
    routes: () => router.list(),
    setFaults,
    dispatch,
    holdWrites: (after = 0) => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const current = { pass: after, waiting: 0, released, release };
      hold = current;
      return {
        waiting: () => current.waiting,
        release: () => {
          if (hold === current) hold = null;
          current.release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        hold?.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
