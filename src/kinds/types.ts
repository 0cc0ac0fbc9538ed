import type { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
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

/**
 * A kind module: its name in the plan (`N`, a literal: the plan's kinds are the registry's), and
 * its operations.
 */
export type KindModule<O extends { type: string }, N extends string = string> = {
  kind: N;
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
function sortBody(type: string, id: string, position: Position, r: Resolver): Record<string, unknown> {
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

/** Where a certificate comes from (its content is never part of the desired state). */
export type CertificateSource =
  { source: 'file'; path: string; sha256: string } | { source: 'env'; name: string; sha256: string };

/** What normalizing an entry may need besides the entry: indirect values resolved by the loader. */
export type NormalizeExtras = { certificates: Map<object, CertificateSource> };

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
  wanted(item: L, wants: W): boolean;
  attach(item: L, answer: never): L;
} & ({ list(org: string, item: L): ApiList } | { call(org: string, item: L): ApiCall });

/** The reads below each item of a list, and what they need to know of the config's entries. */
export type ChildReads<L, W> = {
  prepare(desired: never[]): W;
  reads: readonly ChildRead<L, W>[];
};

/** A list read below each item: every page, each answer checked by the list's item schema. */
export function listBelow<L, W, A>(read: {
  wanted: (item: L, wants: W) => boolean;
  list: (org: string, item: L) => ApiList<A>;
  attach: (item: L, items: A[]) => L;
}): ChildRead<L, W> {
  return read as ChildRead<L, W>;
}

/** One GET below each item. */
export function callBelow<L, W>(read: {
  wanted: (item: L, wants: W) => boolean;
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

/** Export into one file (with other kinds), or one file per entry (a site). */
export type ListExport<C, L> =
  | {
      file: string;
      /** What the kind's entries are, for the file's header (`OpenAPI specs`). */
      header: string;
      entries: (live: L[] | undefined, ctx: ExportContext) => C[] | undefined;
      /** A comment for the file's header (what is read but not managed). */
      note?: (ctx: ExportContext) => string;
    }
  | {
      /** One file per entry: its path under the export's root, what its header says, the entry. */
      each: (live: L[], ctx: ExportContext) => { path: string; header: string; entry: C }[];
    };

/**
 * A kind that is a list directly under an organization, identified within it: everything about it
 * is here, and the config union, normalization, semantic checks, live read, diff and export are
 * derived from these declarations.
 */
export type ListKind<
  K extends string,
  C,
  D,
  L,
  O extends { type: string },
  N extends string = string,
> = KindModule<O, N> & {
  /** Its key in a config file and in the desired and live organization. */
  key: K;
  /** One entry of the config (zod: the JSON Schema and the reference come from it). */
  config: z.ZodType<C>;
  /** Reference entries, by path in the config (`saml[]`, `saml[].certificate`). */
  docs: Record<string, KindDoc>;
  /** Identity within an organization: two entries with the same one are an error. */
  /** `caseless`: `Alice@x` and `alice@x` are the same entry. */
  unique: { what: string; key: string & keyof C; pinned?: boolean; caseless?: boolean };
  normalize: (entry: C, extras: NormalizeExtras) => D;
  reads: LiveRead<unknown>[];
  /** Pair desired and live entries and draft the changes (pure); the diff context is shared. */
  diff: (ctx: DiffContext, desired: D[], live: L[]) => void;
  /**
   * When it is diffed (the plan's order of independent changes follows it): before the other kinds
   * because they depend on its changes (custom fields before their values), right before the
   * organization's settings (which may name a site or a team: teams, then sites), right after them,
   * or (by default) after everything else.
   */
  diffPhase?: 'first' | 'before-settings' | 'after-settings';
  /**
   * Its place in a config file: before `collections`, or at the `end` (after `spaces`, in the
   * registry's order); by default between collections and spaces.
   */
  configBefore?: 'collections' | 'end';
  /** The description of its key in a config file. */
  describe?: string;
  /** Its diff needs to know the user the token belongs to (`ctx.self`), read with it. */
  needsSelf?: boolean;
  /** Checks of one entry that its schema cannot express. */
  check?: (entry: C, on: EntryChecks) => void;
  /** Why a config cannot manage the kind where the API does not have it (`caps.absent`). */
  absent?: (caps: ApiCapabilities) => string;
  export: ListExport<C, L>;
};

/** What a list kind's entry check may report: a problem of a value, or an identity given twice in a scope. */
export type EntryChecks = {
  /** `code`: the issue's stable code (`invalid-value` by default); `key`: point at the key, not its value. */
  report: (path: (string | number)[], message: string, code?: EntryIssueCode, key?: boolean) => void;
  /** A new scope of identities (`team member`): the second entry with one identity is reported. */
  unique: (what: string) => (identity: string, path: (string | number)[], label?: string) => void;
  /** Where a path below the entry is (`file:line:column`), for "another is at" messages. */
  where: (path: (string | number)[]) => string;
  /** The identities and checks of list kinds nested in the entry (a site's share links). */
  nested: (kinds: readonly UniqueList[]) => void;
};

/** The codes an entry check may report (each is a config issue code). */
export type EntryIssueCode =
  'invalid-value' | 'multiple-defaults' | 'sections-and-spaces' | 'empty-section' | 'unknown-reference';

/** A list whose entries are unique by key (or pinned id) within their holder, and checked one by one. */
export type UniqueList = {
  key: string;
  unique: { what: string; key: string; pinned?: boolean; caseless?: boolean };
  check?: (entry: never, on: EntryChecks) => void;
};

/** Any list kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyListKind = ListKind<string, any, any, any, any, ResourceKind>;

/**
 * A kind that is a list inside a site, identified within it (share links): like a list kind, with
 * the site as parent. The site's config, normalization, checks, live read, diff and export
 * include every one the registry names.
 */
export type SiteListKind<
  K extends string,
  C,
  D,
  L,
  O extends { type: string },
  N extends string = string,
> = KindModule<O, N> & {
  /** Its key in a site of the config, and in the desired and live site. */
  key: K;
  config: z.ZodType<C>;
  /** The description of the key in a site (what omitting it means). */
  describe: string;
  docs: Record<string, KindDoc>;
  unique: { what: string; key: string & keyof C; pinned?: boolean };
  normalize: (entry: C) => D;
  read: { list: (org: string, site: string) => ApiList; live: (item: never) => L };
  diff: (ctx: DiffContext, site: SiteScope, siteTitle: string, desired: D[], live: L[]) => void;
  export: (live: L[]) => C[];
};

/** Any site list kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySiteListKind = SiteListKind<string, any, any, any, any, ResourceKind>;

/** Report a problem of a config entry at a path below it. */
export type Report = (path: (string | number)[], code: string, message: string, key?: boolean) => void;

/**
 * A kind that is a facet of an existing space (its custom field values): a key of a space entry,
 * read, diffed and exported with the space. The space's config, normalization, checks, read,
 * diff and export include every one the registry names.
 */
export type SpaceFacet<
  K extends string,
  C,
  D,
  O extends { type: string },
  N extends string = string,
> = KindModule<O, N> & {
  /** Its key in a space entry of the config, and in the desired and live space. */
  key: K;
  config: z.ZodType<C>;
  describe: string;
  /** What the reference says of it under `spaces[]`: a note, and its part of the example. */
  doc: { note: string; example: C };
  normalize: (entry: C) => D;
  /** Checks of one space's value against the organization's whole config (every file). */
  check: (value: C, configs: object[], report: Report) => void;
  /** Why a config cannot manage the facet where the API does not have it (`caps.absent`). */
  absent: (caps: ApiCapabilities) => string;
  /** Read for one space: one GET. */
  read: (space: string) => ApiCall;
  live: (answer: never) => D;
  diff: (ctx: DiffContext, desired: { id: string; value: D }[], live: Map<string, D>) => void;
  /** What export writes under the key, when the organization's live state says it is managed. */
  export: (value: D | undefined, org: object) => C | undefined;
};

/** Any space facet, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpaceFacet = SpaceFacet<string, any, any, any, ResourceKind>;

/**
 * A kind that is one object per organization (its settings): a key of a config file, read with
 * one GET, updated in place. The config, normalization, checks, read, diff and export include
 * every one the registry names.
 */
export type ObjectKind<
  K extends string,
  C,
  D,
  L,
  O extends { type: string },
  N extends string = string,
> = KindModule<O, N> & {
  /** Its key in a config file and in the desired and live organization. */
  key: K;
  config: z.ZodType<C>;
  docs: Record<string, KindDoc>;
  normalize: (entry: C) => D;
  read: { call: (org: string) => ApiCall; live: (answer: never) => L };
  /** Diffed after the sites (it may name one by title). */
  diff: (ctx: DiffContext, desired: D, live: L) => void;
  export: {
    file: string;
    header: string;
    entry: (live: L, ctx: ExportContext) => C;
  };
};

/** Any object kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyObjectKind = ObjectKind<string, any, any, any, any, ResourceKind>;

/**
 * A kind that is one value of a site, read with its own GET and set with its own call (the
 * adaptive schema): a key of a site entry. The site's config, normalization, read, diff and export
 * include every one the registry names.
 */
export type SiteFacet<
  K extends string,
  C,
  D,
  L,
  O extends { type: string },
  N extends string = string,
> = KindModule<O, N> & {
  key: K;
  config: z.ZodType<C>;
  describe: string;
  docs: Record<string, KindDoc>;
  normalize: (entry: C) => D;
  /** Its own GET, or a field of the site's own answer. */
  read:
    | { call: (org: string, site: string) => ApiCall; live: (answer: never) => L }
    | { fromSite: (site: Record<string, unknown>) => L | undefined };
  /** `live` is undefined when the site is not live yet (it is created by the plan). */
  diff: (ctx: DiffContext, site: SiteScope, siteTitle: string, desired: D, live: L | undefined) => void;
  export: (live: L | undefined, caps: ApiCapabilities) => C | undefined;
};

/** Any site facet, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySiteFacet = SiteFacet<string, any, any, any, any, ResourceKind>;

/** What a kind of any shape declares: its key, config entry (C), desired (D) and live (L) types. */
type Declared<K> =
  K extends ListKind<infer Key, infer C, infer D, infer L, infer _O, infer _N>
    ? { key: Key; C: C; D: D; L: L }
    : K extends SiteListKind<infer Key, infer C, infer D, infer L, infer _O, infer _N>
      ? { key: Key; C: C; D: D; L: L }
      : K extends ObjectKind<infer Key, infer C, infer D, infer L, infer _O, infer _N>
        ? { key: Key; C: C; D: D; L: L }
        : K extends SiteFacet<infer Key, infer C, infer D, infer L, infer _O, infer _N>
          ? { key: Key; C: C; D: D; L: L }
          : K extends SpaceFacet<infer Key, infer C, infer D, infer _O, infer _N>
            ? { key: Key; C: C; D: D; L: D }
            : never;

/**
 * For the kinds `K` (a union of modules), each one's key with its `Part`: the desired or live
 * organization, site or space holds these (`ByKey<ListKinds, 'D'>` → `{ teams: DesiredTeam; … }`).
 */
export type ByKey<K, Part extends 'C' | 'D' | 'L'> = { [T in Declared<K> as T['key']]: T[Part] };

/** The same, each optional (undefined: not managed, or not read). */
export type Optional<K, Part extends 'C' | 'D' | 'L'> = Partial<ByKey<K, Part>>;

/** The same, each an optional list. */
export type Lists<K, Part extends 'C' | 'D' | 'L'> = {
  [Key in keyof ByKey<K, Part>]?: ByKey<K, Part>[Key][];
};
