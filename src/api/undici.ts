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

/** `undici.request(url, { dispatcher, ... })` without undici's index. */
export function request(
  dispatcher: Dispatcher,
  origin: string,
  path: string,
  opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  return api.request.call(dispatcher, { ...opts, origin, path });
}
