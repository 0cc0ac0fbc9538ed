import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { goneDelete, serveApi } from './api-request.js';
import { control } from './control.js';
import { HttpError } from './errors.js';
import { sendError } from './http-io.js';
import { registerRouteGroups } from './route-groups.js';
import {
  openRunning,
  persist,
  reset,
  served,
  setFaults,
  type EmulatorOptions,
  type RequestLogEntry,
  type Running,
} from './running.js';
import { makeShapes } from './shapes.js';
import type { EmulatorState } from './state.js';

export type { EmulatorOptions, RequestLogEntry } from './running.js';

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

/** Start the API emulator: a real HTTP server implementing api.md under `/v1`. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const run = openRunning(options);
  registerRouteGroups({
    memo: run.memo,
    state: () => run.state,
    shapes: makeShapes(() => run.baseUrl, run.flavor),
    router: run.router,
    flavor: run.flavor,
    baseUrl: () => run.baseUrl,
  });
  const server = createEmulatorServer(run);
  await listen(server, options);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  run.baseUrl = `http://${host}:${address.port}`;
  persist(run);
  return emulatorHandle(run, server, address.port);
}

function createEmulatorServer(run: Running): Server {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.local');
    const handle = url.pathname.startsWith('/_emulator/')
      ? control(run, req, res, url.pathname)
      : url.pathname === '/v1' || url.pathname.startsWith('/v1/')
        ? serveApi(run, req, res, url)
        : Promise.resolve(sendError(res, 404, `no route for ${req.method} ${url.pathname}`));
    handle.catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof HttpError) sendError(res, error.status, error.message);
      else sendError(res, 400, (error as Error).message);
    });
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

function listen(server: Server, options: EmulatorOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
}

function emulatorHandle(run: Running, server: Server, port: number): Emulator {
  return {
    url: run.baseUrl,
    port,
    // The caller may change the live state in place from now on: nothing derived is kept any more.
    state: (): EmulatorState => {
      run.memo.handedOut(true);
      return run.state;
    },
    requests: () => run.log,
    reset: (seed?: unknown) => reset(run, seed),
    routes: () => run.router.list(),
    setFaults: (input: unknown) => setFaults(run, input),
    dispatch: (method, path, query, body) => dispatch(run, method, path, query, body),
    holdWrites: (after = 0) => holdWrites(run, after),
    close: () =>
      new Promise<void>((resolve) => {
        run.hold?.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One API request answered in this process (the Emulator's `dispatch`). */
function dispatch(
  run: Running,
  method: string,
  path: string,
  query = new URLSearchParams(),
  body?: unknown,
): DispatchResult {
  const fail = (status: number, message: string) => ({
    status,
    body: { error: { code: status, message } },
  });
  const match = run.router.match(method, path);
  if (match === null) return fail(404, `no route for ${method} /v1${path}`);
  if (match === 'method') return fail(405, `method ${method} not allowed on /v1${path}`);
  try {
    const result = served(run, method, () => match.handler({ params: match.params, query, body }));
    return result.body === undefined
      ? { status: result.status }
      : { status: result.status, body: JSON.parse(JSON.stringify(result.body)) as unknown };
  } catch (error) {
    if (goneDelete(run, error, method)) return { status: 204 };
    if (error instanceof HttpError) return fail(error.status, error.message);
    throw error;
  }
}

function holdWrites(run: Running, after: number): WriteHold {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const current = { pass: after, waiting: 0, released, release };
  run.hold = current;
  return {
    waiting: () => current.waiting,
    release: () => {
      if (run.hold === current) run.hold = null;
      current.release();
    },
  };
}
