import type { z } from 'zod';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { Patch, Position, Ref } from '../model/change.js';
import type { ResourceKind } from '../model/kinds.js';

/**
 * What a kind module declares, as data. Nothing here calls the API: the executor
 * (src/apply/execute-op.ts), adoption (src/apply/adopt.ts) and the live read (src/live/read.ts)
 * turn these declarations into requests. Decision 0020 says how to add a kind.
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
};

/** One list read: every page of the route, each item checked by `item`. */
export type ApiList<T = unknown> = {
  route: string;
  params: Params;
  item: z.ZodType<T>;
  /** The list is a tree (`nested=true`). */
  nested?: boolean;
};

/** Resolves what a plan names by reference, when the change runs. */
export type Resolver = {
  ref: (ref: Ref) => string;
  patch: (patch: Patch) => Record<string, unknown>;
  /** A move position in api.md's shape: `{ before|after: { type, <key>: id } }`. */
  position: (position: Position, type: string, key: string) => Record<string, unknown>;
};

/** Ids a change produced (creations): `id`, and for a section `siteSpace:<spaceId>`. */
export type OpOutput = Record<string, string>;

/** How one operation of the plan becomes one API call. */
export type OpDef<O> = {
  call: (op: O, r: Resolver, caps: ApiCapabilities) => ApiCall;
  /** Ids a creation yields from its answer. */
  output?: (answer: never, op: O) => OpOutput;
  /**
   * After a creation failed ambiguously: the list to read again, and how to recognise the object
   * there by its identity (null: not created, safe to send again).
   */
  adopt?: {
    list: (op: O, r: Resolver) => ApiList;
    find: (item: never, op: O, r: Resolver) => boolean;
    output: (item: never, op: O) => OpOutput;
  };
};

/** Every operation type of a union, with its definition. */
export type OpDefs<O extends { type: string }> = { [T in O['type']]: OpDef<Extract<O, { type: T }>> };

/** A kind module: its name in the plan, and its operations. */
export type KindModule<O extends { type: string }> = {
  kind: ResourceKind;
  ops: OpDefs<O>;
};

/** An answer item with an id: the common output of a creation. */
export const idOutput = (answer: { id: string }): OpOutput => ({ id: answer.id });

/** A delete: `DELETE <route>`, answered as the API answers deletes. */
export const deleteCall = (route: string, params: Params, caps: ApiCapabilities): ApiCall => ({
  method: 'DELETE',
  route,
  params,
  expect: caps.deleteAnswers,
});

/** Today's `PATCH /sites/{id}/structure/sort` body: one call orders any item of a site. */
export function sortBody(type: string, id: string, position: Position, r: Resolver): Record<string, unknown> {
  const where = position.before ? 'before' : 'after';
  return {
    item: { type, id },
    position: { [where]: { type, id: r.ref((position.before ?? position.after)!) } },
  };
}

/**
 * A move within a site's structure, as the API orders it: one sort call (today's API) or the
 * kind's own move endpoint (api.md).
 */
export function structureMove(
  caps: ApiCapabilities,
  r: Resolver,
  what: { org: string; site: Ref; item: Ref; position: Position },
  sort: { type: string },
  move: { route: string; param: string; type: string; key: string },
): ApiCall {
  const org = what.org;
  const site = r.ref(what.site);
  const item = r.ref(what.item);
  if (caps.ordering === 'sort-structure')
    return {
      method: 'PATCH',
      route: '/orgs/{org}/sites/{site}/structure/sort',
      params: { org, site },
      body: sortBody(sort.type, item, what.position, r),
      expect: [200, 204],
    };
  return {
    method: 'POST',
    route: move.route,
    params: { org, site, [move.param]: item },
    body: { position: r.position(what.position, move.type, move.key) },
    expect: [200, 204],
  };
}
