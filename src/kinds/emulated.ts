import type { z } from 'zod';

/**
 * What the emulator needs to serve a plain list kind, declared in the kind's own module (its
 * `emulator` part): pure data and pure functions. `src/emulator/declared.ts` registers every kind
 * that declares one: its store, routes, pagination, request validation, 404s, the flavors where the
 * API has it (the kind's `absentIn`) and delete answers. Decision 0020 has the recipe.
 */

type DeleteStatus = 204 | 205;

/** What the emulator gives a declared kind's functions: time, fresh values and where the item is. */
export type EmulatedContext = {
  flavor: 'seed' | 'current';
  now: () => string;
  /** A fresh id with the kind's `idPrefix` (deterministic when seeding). */
  id: () => string;
  /** A fresh random secret (a share link's token). */
  secret: () => string;
  /** The holder's ids: the organization, and the site for a site's list. */
  org: string;
  site?: string;
  /** Base URLs: the emulator's API (`http://127.0.0.1:PORT/v1`), its app, and its docs (where sites are served). */
  urls: { api: string; app: string; docs: string };
};

/**
 * One declared kind as the emulator serves it. `I` is the stored item (plain JSON), `B` the create
 * body, `U` the update body, `S` a seed entry (all validated with the zod schemas given, in the
 * official API's field names: a failure is a 400 naming the field).
 */
export type Emulated<I extends { id: string }, B, U, S> = {
  /** Where the items live: a list in each organization or in each site of the state. */
  in: 'organizations' | 'sites';
  /** The list's name in the organization or site of the emulator's state (`shareLinks`, `linkInvites`). */
  store: string;
  /**
   * The kind's own route templates (`/orgs/{org}/sites/{site}/share-links` and `…/{link}`): the
   * list is served with GET and POST, the item with the methods below. `{org}` and `{site}` name
   * the holder; the item route's last parameter is the item's id.
   */
  routes: { list: string; item: string };
  /** false: the API has no GET of the list (a site's external links are read in its structure). */
  listed?: false;
  /** What an item is called in a 404 (`share link`). */
  noun: string;
  /** The prefix of created ids (`sl`: `sl_3f2a…`). */
  idPrefix: string;
  /** POST to the list: the body's schema and the item it makes. */
  create: { body: z.ZodType<B>; item: (body: B, ctx: EmulatedContext) => I };
  /** GET of one item. */
  get?: boolean;
  /** PATCH (or PUT) of one item: the body's schema and how it changes the item (in place). */
  update?: {
    method: 'PATCH' | 'PUT';
    body: z.ZodType<U>;
    apply: (item: I, body: U, ctx: EmulatedContext) => void;
  };
  /**
   * DELETE of one item: its answer status, or one per flavor (today's API answers 204 for an id
   * that does not exist, whatever this says).
   */
  delete?: { status: DeleteStatus | { seed: DeleteStatus; current: DeleteStatus } };
  /** The item in the API's answer shape (the official schema's names, required properties included). */
  answer: (item: I, ctx: EmulatedContext) => unknown;
  /** How a seed entry (listed under the kind's config key in the seed's organization or site) becomes an item. */
  seed?: { entry: z.ZodType<S>; item: (entry: S, ctx: EmulatedContext) => I };
  /**
   * A bulk call on the list (today's redirects: `PUT` with up to 500 upserts and deletions): its
   * body's schema, and what it does to the items (in place), returning the answer's body.
   */
  bulk?: {
    method: 'PUT';
    body: z.ZodType<unknown>;
    apply: (items: I[], body: never, ctx: EmulatedContext) => unknown;
  };
  /** Special behaviour, small: the order a list answers in (by default, creation order). */
  hooks?: {
    order?: (items: readonly I[]) => I[];
    /**
     * A reference a create or update body makes to another object of the holder (a link's group):
     * the 404 message when the holder lacks it, else undefined. Checked before the item changes.
     */
    missing?: (body: B | U, holder: Readonly<Record<string, unknown>>) => string | undefined;
  };
};

/** Any declared kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEmulated = Emulated<any, any, any, any>;

/** Type a kind's emulator part (infers the item and bodies from its functions and schemas). */
export function emulated<I extends { id: string }, B, U = unknown, S = unknown>(
  e: Emulated<I, B, U, S>,
): Emulated<I, B, U, S> {
  return e;
}
