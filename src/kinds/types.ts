import type { ApiCall, ApiList, Params } from '../model/api-call.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { Patch, Position, Ref } from '../model/change.js';
import type { CertificateRef } from '../model/desired.js';
import type { ApiFlavor } from '../model/kinds.js';
import type { Credentials } from '../model/credentials.js';
import type { AnyEmulated } from './emulated.js';

/**
 * What a kind module declares, as data. Nothing here calls the API: the executor
 * (src/apply/execute-op.ts), adoption (src/apply/adopt.ts) and the live read (src/live/read.ts)
 * turn these declarations into requests. Decision 0020 says how to add a kind.
 */

export type { ApiCall, ApiList, HttpVerb, Params } from '../model/api-call.js';
export type { Credentials };

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
  /** The API behaviour the operation needs (`invites`): a flavor without it never plans the operation. */
  needs?: 'invites';
  /**
   * The API flavors that lack this operation though they have its kind (a field only today's API
   * sets: an OpenAPI spec's visibility); a config that asks for it there is refused at validation.
   */
  absentIn?: readonly ApiFlavor[];
  /** Ids a creation yields from its answer. */
  output?: (answer: never, op: O) => OpOutput;
  /**
   * After a creation failed ambiguously: the list to read again, and how to recognise the object
   * there by its identity (null: not created, safe to send again).
   */
  adopt?: {
    find: (item: never, op: O, r: Resolver) => boolean;
    output: (item: never, op: O) => OpOutput;
  } & (
    | { list: (op: O, r: Resolver) => ApiList }
    /** Where the API has no list of them: one GET, and the items in its answer (a site's external links). */
    | { read: (op: O, r: Resolver) => ApiCall; items: (answer: unknown) => unknown[] }
  );
  /**
   * The operation names a live object by fingerprint (its id is a credential, `Credentials.id`):
   * the list read again when it runs, where the object whose id has that fingerprint is found and
   * its id used in the call (decision 0031).
   */
  locate?: (op: O) => ApiList;
};

/** Every operation type of a union, with its definition. */
export type OpDefs<O extends { type: string }> = { [T in O['type']]: OpDef<Extract<O, { type: T }>> };

/**
 * A kind module: its name in the plan (`N`, a literal: the plan's kinds are the registry's), and
 * its operations.
 */
export type KindModule<O extends { type: string }, N extends string = string> = {
  kind: N;
  ops: OpDefs<O>;
  /** Live fields that are credentials (decision 0031). */
  credentials?: Credentials;
  /** What the emulator needs to serve the kind (src/kinds/emulated.ts), for a plain list kind. */
  emulator?: AnyEmulated;
  /**
   * Its changes join or part two objects (a section and a group) rather than make or remove a
   * resource: a deletion is not counted against `policy.maxDeletes`.
   */
  relation?: boolean;
  /**
   * The API flavors that do not have the kind: their emulator does not serve it, the live read
   * skips it, and a config that manages it is refused (with the module's `absent` message).
   */
  absentIn?: readonly ApiFlavor[];
  /**
   * The API flavors where the kind's route answers a different resource: its `readOnly` reads run
   * there (for export's notes), nothing is managed (today's translations).
   */
  readOnlyIn?: readonly ApiFlavor[];
};

/** Whether the API these capabilities describe lacks the kind (its module's `absentIn`). */
export const absentHere = (
  kind: { absentIn?: readonly ApiFlavor[] },
  caps: Pick<ApiCapabilities, 'flavor'>,
) => kind.absentIn?.includes(caps.flavor) ?? false;

/** Whether the kind's route answers a different resource in the API these capabilities describe (`readOnlyIn`). */
export const readOnlyHere = (
  kind: { readOnlyIn?: readonly ApiFlavor[] },
  caps: Pick<ApiCapabilities, 'flavor'>,
) => kind.readOnlyIn?.includes(caps.flavor) ?? false;

/** An answer item with an id: the common output of a creation. */
export const idOutput = (answer: { id: string }): OpOutput => ({ id: answer.id });

/** A delete: `DELETE <route>`, answered as the API answers deletes. */
export const deleteCall = (route: string, params: Params, caps: ApiCapabilities): ApiCall => ({
  method: 'DELETE',
  route,
  params,
  expect: caps.deleteAnswers,
});

/** Today's `PATCH /sites/{id}/structure/sort`: one call orders any item of a site (`type`: its pointer's). */
export function structureSort(
  r: Resolver,
  what: { org: string; site: Ref; item: Ref; position: Position },
  type: string,
  /** The anchor's type, when it is another kind of item (a link placed after a section). */
  anchorType: string = type,
): ApiCall {
  return {
    method: 'PATCH',
    route: '/orgs/{org}/sites/{site}/structure/sort',
    params: { org: what.org, site: r.ref(what.site) },
    body: sortBody(type, anchorType, r.ref(what.item), what.position, r),
    expect: [200, 204],
  };
}

/** Today's `PATCH /sites/{id}/structure/sort` body: one call orders any item of a site. */
function sortBody(
  type: string,
  anchorType: string,
  id: string,
  position: Position,
  r: Resolver,
): Record<string, unknown> {
  const where = position.before ? 'before' : 'after';
  return {
    item: { type, id },
    position: { [where]: { type: anchorType, id: r.ref((position.before ?? position.after)!) } },
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
  if (caps.ordering === 'sort-structure') return structureSort(r, what, sort.type);
  return {
    method: 'POST',
    route: move.route,
    params: { org, site, [move.param]: item },
    body: { position: r.position(what.position, move.type, move.key) },
    expect: [200, 204],
  };
}

/**
 * What the configuration reference (docs/configuration.md) says about a kind beyond its keys:
 * how docsync pairs an entry with a live resource (identity), notes, and a short example. Keyed
 * by the kind's place in the config (`sites[].sections[]`).
 */
export type KindDoc = {
  /** Section heading, after the path. */
  title: string;
  /** The key(s) that identify an entry; undefined for a single object (policy, settings). */
  identity?: string;
  notes?: string[];
  /** A short example: the value under this key (a list for list kinds). Nested kinds have none. */
  example?: unknown;
};

/** What normalizing an entry may need besides the entry: indirect values resolved by the loader. */
export type NormalizeExtras = {
  /** Secrets the loader read (their hash and where they are), by the config entry naming them. */
  certificates: Map<object, CertificateRef>;
  /** Documents the loader read (`indirect.secret: false`): their text, by the config entry naming them. */
  documents: Map<object, string>;
};

/** What exporting a kind may need besides its live list. */
export type ExportContext = {
  /** The whole live organization (to name other objects by title). */
  org: Record<string, unknown> & { id: string; readOnly?: Record<string, unknown[]> };
  warnings: string[];
  /** Extra files to write (a certificate, by path relative to the export's root). */
  files: { path: string; text: string }[];
  /** Secrets the live model leaves out, read for the export (by object id). */
  secrets: Map<string, string>;
  caps: ApiCapabilities;
};

/**
 * A read below each item of a list (a team's members, a site's sections), for the items the config
 * wants it for (all, for export), attached to the item. `wants` is what the reads' `prepare` made of
 * the config's entries, once per read. Build one with `listBelow` or `callBelow`, which tie the
 * answer's type to `attach`. (Methods, so a read of one live type fits the registry's `unknown`.)
 */
export type ChildRead<L, W> = {
  /** The API flavors that do not have what it reads (its kind's `absentIn`): never read there. */
  absentIn?: readonly ApiFlavor[];
  wanted(item: L, wants: W): boolean;
  /** Items that have what it reads at all, export included (a spec's raw text: one made from text). */
  applies?(item: L): boolean;
  attach(item: L, answer: never): L;
  /**
   * Reads that need this one's answer (one per site space it named): made from the item once every
   * read of its round is attached; `wants` undefined for export (everything).
   */
  then?(item: L, wants: W | undefined): readonly ChildRead<L, unknown>[];
} & ({ list(org: string, item: L): ApiList } | { call(org: string, item: L): ApiCall });

/** The reads below each item of a list, and what they need to know of the config's entries. */
export type ChildReads<L, W> = {
  prepare(desired: never[]): W;
  reads: readonly ChildRead<L, W>[];
};

/**
 * A list read below each item: every page, each answer checked by the list's item schema (and
 * made into the list's `live` form as its page arrives, when it gives one: `attach` gets those).
 */
export function listBelow<L, W, A, S = A>(read: {
  absentIn?: readonly ApiFlavor[];
  wanted: (item: L, wants: W) => boolean;
  list: (org: string, item: L) => ApiList<A, S>;
  attach: (item: L, items: S[]) => L;
  then?: (item: L, wants: W | undefined) => readonly ChildRead<L, unknown>[];
}): ChildRead<L, W> {
  return read as ChildRead<L, W>;
}

/** One GET below each item. */
export function callBelow<L, W>(read: {
  absentIn?: readonly ApiFlavor[] | undefined;
  wanted: (item: L, wants: W) => boolean;
  applies?: (item: L) => boolean;
  call: (org: string, item: L) => ApiCall;
  attach: (item: L, answer: unknown) => L;
}): ChildRead<L, W> {
  return read;
}

/**
 * One way to read a kind's live list. Read when the API has the kind; a `readOnly` read instead
 * when the API answers a different resource at its route (kept for export's notes, not managed).
 */
export type LiveRead<L> = {
  readOnly?: boolean;
  list: (org: string) => ApiList;
  live: (item: never) => L;
  /** Reads below each item, attached in this order. */
  children?: ChildReads<L, unknown>;
  /**
   * A secret the answer holds that the live model never keeps (a certificate), by object id: only
   * export asks for it, from the same read.
   */
  secret?: (item: never) => [string, string] | undefined;
};

/**
 * A value of a config entry that names a live object (issue 27): resolved when planning, against
 * live state or what the same plan creates. `target` is what it names (a `Lookup`'s target), `path`
 * is below the entry, `holder` names the entry for people.
 */
export type EntryReference = {
  target: string;
  id: string;
  path: (string | number)[];
  holder: string;
  /** Point at the key of the last step (a name), not at its value. */
  onKey?: boolean;
  /** The diff needs the id of what it names: the list of its lookup's kind is read with the live state. */
  read?: boolean;
};

/** A live entry's own references (a site's site spaces name spaces): what the live read proves exists. */
export type LiveReference = { target: string; names: string[] };

/**
 * How the objects a reference may name are known: the names a live item answers to (of the kind's
 * live list, read when the config does not manage the kind), the names of the config's entries
 * that the plan creates, or one GET per id where the API cannot list them.
 */
export type Lookup = {
  target: string;
  /** The word for it in a message (`space`, `member`). */
  noun: string;
  /** Names compare without case (e-mails). */
  caseless?: boolean;
  /** Names are titles, quoted in messages. */
  quoted?: boolean;
  names?: (item: never) => string[];
  created?: (entry: never) => string[];
  /**
   * The diff names these objects by id (a SAML default team, the default site): the kind's live
   * list is read whenever the config names one, even when the config does not manage the kind.
   */
  readWhenNamed?: boolean;
  get?: { call: (id: string) => ApiCall };
};
