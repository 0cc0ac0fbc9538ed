import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';

/**
 * Only the parts of undici the API client uses. undici's index also loads fetch, cookies,
 * WebSocket, mocks and Node's own copy of undici: about 50 ms of every command's start-up.
 * The paths are those of the pinned version (package-lock.json); `http.ts`, outbound calls and the etcd client use it.
 */
const require = createRequire(import.meta.url);
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const errors = require('undici/lib/core/errors.js') as typeof Undici.errors;
const api = require('undici/lib/api/index.js') as {
  request: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
};

/**
 * `undici.request(url, { dispatcher, ... })` without undici's index. `onSent`: called when undici
 * writes the request to its socket (the rate budget counts a start then, decision 43), which on a
 * kept-alive socket waits for the event loop's check phase.
 */
export function request(
  dispatcher: Dispatcher,
  origin: string,
  path: string,
  opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
  onSent?: () => void,
): Promise<Dispatcher.ResponseData> {
  const through = onSent
    ? {
        dispatch: (o: Dispatcher.DispatchOptions, h: Legacy) =>
          dispatcher.dispatch(o, new Sent(h, onSent) as never),
      }
    : dispatcher;
  return api.request.call(through as Dispatcher, { ...opts, origin, path });
}

/** The handler `request` gives its dispatcher (undici's own API before 7's controllers). */
type Legacy = {
  onConnect(abort: (err?: Error) => void, context?: unknown): void;
  onHeaders(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(trailers: Buffer[] | null): void;
  onError(err: Error): void;
  onUpgrade?: unknown;
};

/**
 * `request`'s handler, told when the request is written: undici calls `onConnect` just before it
 * writes a request's headers to its socket. Everything else goes straight through.
 */
class Sent implements Legacy {
  constructor(
    private readonly handler: Legacy,
    private readonly onSent: () => void,
  ) {}
  onConnect(abort: (err?: Error) => void, context?: unknown): void {
    this.onSent();
    this.handler.onConnect(abort, context);
  }
  onHeaders(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.handler.onHeaders(status, headers, resume, statusText);
  }
  onData(chunk: Buffer): boolean {
    return this.handler.onData(chunk);
  }
  onComplete(trailers: Buffer[] | null): void {
    this.handler.onComplete(trailers);
  }
  onError(err: Error): void {
    this.handler.onError(err);
  }
}
