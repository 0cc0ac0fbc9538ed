import type { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ArrivingList, Wait } from '../model/arriving.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { ApiFlavor } from '../model/kinds.js';
import type { ContentCheck, IndirectSource } from '../secrets/indirect.js';
import type { KindExamples } from './examples.js';
import type {
  ApiCall,
  ApiList,
  EntryReference,
  ExportContext,
  KindDoc,
  KindModule,
  LiveRead,
  LiveReference,
  Lookup,
  NormalizeExtras,
} from './types.js';
import type { ObjectKind, SiteFacet, SpaceFacet } from './value-shapes.js';

/**
 * The five shapes of kind (decision 0020): a list under an organization, an object of it, a list
 * inside a site, a value of a site, a key of an existing space. Each declares what the generic code
 * (config, checks, reads, diff, export) needs; `types.ts` holds the operations and reads they use.
 * The lists are here, the values in `value-shapes.ts`.
 */

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
  /**
   * A value of the entry read from a file or an environment variable by the loader (confined, see
   * src/secrets): its key, where it comes from, its size limit and what its content must be (a
   * check every indirect value declares: a certificate must parse as one). `normalize` gets its
   * reference (a secret: its hash and where it is), or its text (a document: `secret: false`).
   */
  indirect?: {
    key: string & keyof C;
    /** The value's key below `key`, when it is nested (a site's `visitorAuth.privateKey`). */
    under?: string;
    source: (entry: C) => IndirectSource | undefined;
    maxChars: number;
    content: ContentCheck;
    /**
     * false: a document, not a secret (an OpenAPI spec's text): read with the same confinement, not
     * registered with the redactor, and its text enters the desired state (`extras.documents`).
     */
    secret?: false;
  };
  reads: LiveRead<unknown>[];
  /** Pair desired and live entries and draft the changes (pure); the diff context is shared. */
  diff: (ctx: DiffContext, desired: D[], live: L[]) => void;
  /**
   * The same diff in steps (a generator that yields between items: a site, some teams), for a kind
   * whose diff reads nothing another kind's diff writes (no `siteRefs`, `teamRefs`, `dependedOn`,
   * other kinds' drafts, `self` or `userIds`): it can then run in a context of its own as soon as
   * its list is read, a slice at a time, while other lists are still being read, and be spliced in
   * at its place in the diff's order (src/reconcile/diff.ts, decision 43's sixth pass).
   * With `arriving`, it starts as the list begins to be read (decision 43's eighth pass): `live` is
   * then `arriving.paged`, the items as paged so far, and a step that needs what is not read yet
   * (the next page, an item's reads below) yields `WAIT` (src/model/arriving.ts); the result must
   * be the diff of the list `arriving.items` ends up holding.
   */
  diffSteps?: (
    ctx: DiffContext,
    desired: D[],
    live: L[],
    arriving?: ArrivingList<L>,
  ) => Iterator<void | Wait, void, undefined>;
  /**
   * Whether `diffSteps` of these entries reads nothing other kinds' diffs write (default: yes): a
   * site that grants a team access names it through `teamRefs`, so its diff waits for the teams'.
   */
  diffsAlone?: (desired: D[]) => boolean;
  /**
   * The weight of the reads below this kind's items in the client's turns, when its diff is done
   * ahead (`diffSteps`; default 1, as every other read): above 1 they end before the reads of
   * weight 1 (a share of 1.5: when those are two thirds through), so that a diff that waits for
   * them (the sites', whose sections are read below each site) runs while the others are read.
   */
  readsBelowShare?: number;
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
  /**
   * Values of an entry that name live objects (resolved when planning); `org` is the whole desired
   * organization. A kind may leave out the references `wanted` refuses (its caller filters them
   * anyway): a large config names many that the live read proves.
   */
  references?: (entry: D, org: never, wanted?: (target: string, id: string) => boolean) => EntryReference[];
  /**
   * The targets `references` would name, with their `read` flags, without building each located
   * reference (the live read's scope needs only these); by default taken from `references`.
   */
  referenceTargets?: (entry: D, org: never) => readonly Pick<EntryReference, 'target' | 'read'>[];
  /** What a live entry already names (proven to exist by the live read). */
  liveReferences?: (entry: L) => LiveReference[];
  /** How references to this kind's objects are resolved. */
  lookup?: Lookup;
  /** Checks of one entry that its schema cannot express. */
  check?: (entry: C, on: EntryChecks) => void;
  /** Why a config cannot manage the kind where the API does not have it (its `absentIn` flavors). */
  absent?: (caps: ApiCapabilities) => string;
  /**
   * Keys of an entry that some flavors of the API lack (a site's `sections[].draft` in api.md), as
   * paths below the entry (`[]` steps into each item of a list): a config that gives one is refused
   * at validation, at the key (src/config/absent.ts).
   */
  absentKeys?: { in: readonly ApiFlavor[]; paths: readonly string[] };
  export: ListExport<C, L>;
  /** Entries with the live objects they pair with (src/kinds/examples.ts): tests are built from them. */
  examples: KindExamples<C>;
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
export type AnyListKind = ListKind<string, any, any, any, any, string>;

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
  /** Its list, or (where the API has none) one GET and the items in its answer (a site's external links). */
  read:
    | { list: (org: string, site: string) => ApiList; live: (item: never) => L }
    | {
        call: (org: string, site: string) => ApiCall;
        items: (answer: unknown) => unknown[];
        live: (item: never) => L;
      };
  /**
   * `managed`: the config gives the key (else `desired` is empty and `live` was not read: only a
   * kind that `plansUnmanaged` is diffed then, for what the plan itself adds: redirects).
   */
  diff: (
    ctx: DiffContext,
    site: SiteScope,
    siteTitle: string,
    desired: D[],
    live: L[],
    managed: boolean,
  ) => void;
  /** Diffed for every site, managed or not (the redirects a plan adds for the paths it changes). */
  plansUnmanaged?: boolean;
  /** Why a config cannot manage the kind where the API does not have it (its `absentIn` flavors). */
  absent?: (caps: ApiCapabilities) => string;
  /** The live list as config entries; `site` is the whole live site (to name what the entries point at). */
  export: (live: L[], site: object) => C[];
  /** Entries with the live objects (seed entries of a site's list) they pair with. */
  examples: KindExamples<C>;
};

/** Any site list kind, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySiteListKind = SiteListKind<string, any, any, any, any, string>;

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

/** A kind's `diff` made of its `diffSteps`: the same steps, run to the end at once. */
export function drained<D, L>(
  steps: (ctx: DiffContext, desired: D[], live: L[]) => Iterator<void | Wait, void, undefined>,
): (ctx: DiffContext, desired: D[], live: L[]) => void {
  return (ctx, desired, live) => {
    // Without a list being read, nothing is waited for: every step runs at once.
    const it = steps(ctx, desired, live);
    while (it.next().done !== true);
  };
}
