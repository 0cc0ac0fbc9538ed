import type { z } from 'zod';
import type { Credentials } from './credentials.js';

/**
 * An API call as data: the kinds declare them (src/kinds/), the API client (src/api/) makes them.
 * Nothing here calls the API.
 */

export type HttpVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Path parameters, filled into the route template (`/orgs/{org}/sites/{site}`), encoded. */
export type Params = Record<string, string>;

/** One API call: the route template, its parameters, the body and the answers accepted. */
export type ApiCall = {
  method: HttpVerb;
  route: string;
  params: Params;
  body?: unknown;
  expect: readonly number[];
  /** The answer's schema, when the change needs something from it (a created id). */
  answer?: z.ZodType;
  /** A creation: not retried blindly after an ambiguous failure (decision 0004). */
  create?: boolean;
  /** Credentials its answer holds: registered with redaction when it arrives. */
  credentials?: Credentials;
};

/**
 * One list read: every page of the route, each item checked by `item`, then made into `live` (when
 * given: the list's items are then `S`, not `T`) as its page arrives, so that the raw page is
 * dropped at once (decision 42).
 */
export type ApiList<T = unknown, S = T> = {
  route: string;
  params: Params;
  item: z.ZodType<T>;
  /** (A method: a list of any item type is still an `ApiList`.) */
  live?(item: T): S;
  /** The list is a tree (`nested=true`). */
  nested?: boolean;
  /** Credentials its items hold: registered with redaction when they arrive. */
  credentials?: Credentials;
};
