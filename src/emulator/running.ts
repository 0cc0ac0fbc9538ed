import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FaultConfig, RateWindow, seededRandom } from './faults.js';
import { Memo } from './memo.js';
import { Router } from './router.js';
import { stateFromSeed } from './seed.js';
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

/** A request log entry's status when no answer was made: a reset fault dropped the connection. */
export const NO_ANSWER = -1;

export type RequestLogEntry = {
  method: string;
  path: string;
  query: string;
  /**
   * The answer's HTTP status, as the emulator made it: 0 until then, `NO_ANSWER` (-1) when none was
   * made (a reset fault). A request served is logged with its status even when its client went
   * away before the answer was written (`sent: false`): what the server did stays in the log.
   */
  status: number;
  /** `false` when the connection closed before the answer was written (the client went away, a reset). */
  sent?: false;
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

/** Writes held by `holdWrites`: the first `pass` go through, the others wait for `released`. */
export type Hold = { pass: number; waiting: number; released: Promise<void>; release: () => void };

/** What a running emulator's requests share and change: its state, request log, faults and held writes. */
export type Running = {
  readonly dataFile: string | undefined;
  readonly token: string;
  readonly flavor: 'seed' | 'current';
  readonly memo: Memo;
  readonly router: Router;
  state: EmulatorState;
  log: RequestLogEntry[];
  faults: FaultConfig;
  random: () => number;
  window: RateWindow | null;
  hold: Hold | null;
  /** The emulator's own URL, known once it listens. */
  baseUrl: string;
};

/** The emulator before it listens: the state from its data file or seed, faults from its options. */
export function openRunning(options: EmulatorOptions): Running {
  return {
    dataFile: options.dataFile,
    token: options.token ?? 'dev-token',
    flavor: options.flavor ?? 'seed',
    memo: new Memo(),
    router: new Router(),
    state: initialState(options),
    log: [],
    faults: FaultConfig.parse({ rateLimit: options.rateLimit ?? null }),
    random: Math.random,
    window: rateWindow(options.rateLimit),
    hold: null,
    baseUrl: '',
  };
}

function initialState(options: EmulatorOptions): EmulatorState {
  if (options.dataFile && existsSync(options.dataFile))
    return JSON.parse(readFileSync(options.dataFile, 'utf8')) as EmulatorState;
  if (options.seed !== undefined) return stateFromSeed(options.seed);
  return emptyState();
}

function rateWindow(rateLimit: EmulatorOptions['rateLimit'] | null): RateWindow | null {
  return rateLimit
    ? new RateWindow(rateLimit.limit, rateLimit.windowSeconds * 1000, rateLimit.model, rateLimit.headers)
    : null;
}

/**
 * Serve one request: a GET as it is, a write with the memo's indexes dropped (`Memo.write`) and then
 * the state saved (`persist`). The HTTP server and the in-process `dispatch` both serve this way.
 */
export function served<T>(run: Running, method: string, serve: () => T): T {
  if (method === 'GET') return serve();
  const result = run.memo.write(serve);
  persist(run);
  return result;
}

/** Write the state to the data file, when there is one (a whole new file, renamed over the old). */
export function persist(run: Running): void {
  if (!run.dataFile) return;
  mkdirSync(dirname(run.dataFile), { recursive: true });
  const tmp = `${run.dataFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(run.state));
  renameSync(tmp, run.dataFile);
}

export function setFaults(run: Running, input: unknown): void {
  run.faults = FaultConfig.parse(input ?? {});
  run.random = run.faults.seed !== undefined ? seededRandom(run.faults.seed) : Math.random;
  run.window = rateWindow(run.faults.rateLimit);
}

export function reset(run: Running, seed?: unknown): void {
  run.state = seed === undefined || seed === null ? emptyState() : stateFromSeed(seed);
  run.memo.handedOut(false);
  run.log = [];
  persist(run);
}
