import type { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { CertificateRef } from '../model/desired.js';
import type { KindExamples } from './examples.js';
import type { ApiCall, ApiList, EntryReference, ExportContext, KindDoc, KindModule } from './types.js';

/**
 * The shapes of kind that are one value (decision 0020): an object of an organization, a value of a
 * site, a key of an existing space. The list shapes, and what is derived from every shape, are in
 * `shapes.ts`.
 */

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
  /** Why a config cannot manage the facet where the API does not have it (its `absentIn` flavors). */
  absent: (caps: ApiCapabilities) => string;
  /** Read for one space: one GET, or lists (every page of each; `live` gets their items, in order). */
  read: (space: string) => ApiCall | { lists: ApiList[] };
  /** Its diff needs to know the user the token belongs to (`ctx.self`), read with it. */
  needsSelf?: boolean;
  /** Diffed after every other kind (it names teams the plan may create); by default, right after the first ones. */
  diffPhase?: 'last';
  /** Values that name live objects (resolved when planning); `org` is the whole desired organization. */
  references?: (value: D, space: string, org: never) => EntryReference[];
  live: (answer: never) => D;
  diff: (ctx: DiffContext, desired: { id: string; value: D }[], live: Map<string, D>) => void;
  /** What export writes under the key, when the organization's live state says it is managed. */
  export: (value: D | undefined, org: object) => C | undefined;
  /** Values with the seed fields of a space they pair with. */
  examples: KindExamples<C>;
};

/** Any space facet, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpaceFacet = SpaceFacet<string, any, any, any, string>;

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
  /** Values that name live objects (resolved when planning). */
  references?: (value: D) => EntryReference[];
  /** Diffed after the sites (it may name one by title). */
  diff: (ctx: DiffContext, desired: D, live: L) => void;
  export: {
    file: string;
    header: string;
    entry: (live: L, ctx: ExportContext) => C;
  };
  /** Values with the seed fields of the organization they pair with. */
  examples: KindExamples<C>;
};

/** Any object kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyObjectKind = ObjectKind<string, any, any, any, any, string>;

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
  /** `indirect`: the site's value read from a file or a variable (its `indirect`), when it has one. */
  normalize: (entry: C, indirect?: CertificateRef) => D;
  /**
   * Its own GET, lists (every page of each; `live` makes a part of the value of each list's items,
   * and the parts are joined: a value that is a list), or a field of the site's own answer.
   */
  read:
    | { call: (org: string, site: string) => ApiCall; live: (answer: never) => L }
    | { lists: (org: string, site: string) => ApiList[]; live: (items: never[]) => L }
    | { fromSite: (site: Record<string, unknown>) => L | undefined };
  /** Values that name live objects (resolved when planning). */
  references?: (value: D, siteTitle: string) => EntryReference[];
  /** Why a config cannot manage the facet where the API does not have it (its `absentIn` flavors). */
  absent?: (caps: ApiCapabilities) => string;
  /** `live` is undefined when the site is not live yet (it is created by the plan). */
  diff: (ctx: DiffContext, site: SiteScope, siteTitle: string, desired: D, live: L | undefined) => void;
  export: (live: L | undefined, caps: ApiCapabilities) => C | undefined;
  /** Values with the seed fields of a site they pair with. */
  examples: KindExamples<C>;
};

/** Any site facet, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySiteFacet = SiteFacet<string, any, any, any, any, string>;
