import { z } from 'zod';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { CertificateRef } from '../model/desired.js';
import { emptyList } from '../model/holey.js';
import { withField } from '../model/with-field.js';
import { adaptiveSchemaKind, type AdaptiveSchemaOp } from './adaptive-schema.js';
import { externalLinkKind, type ExternalLinkOp } from './external-link.js';
import { checkLinkPlaces } from './external-link-place.js';
import { listIn, valueIn } from './list-in.js';
import { previewCall, publicationKind, type PublicationOp } from './publication.js';
import { shareLinkKind, type ShareLinkOp } from './share-link.js';
import { siteAgentSettingsKind, type SiteAgentSettingsOp } from './site-agent-settings.js';
import { siteCustomizationKind, type SiteCustomizationOp } from './site-customization.js';
import { siteVisitorAuthKind, type SiteVisitorAuthOp } from './site-visitor-auth.js';
import { siteGrantKind, type SiteGrantOp } from './site-grant.js';
import { siteRedirectKind, type SiteRedirectOp } from './site-redirect.js';
import {
  checkStructure,
  diffSiteStructure,
  exportStructure,
  normalizeStructure,
  structureDocs,
  structureReads,
  givesOverrides,
  structureAbsentKeys,
  structureShape,
  structureNames,
  type DesiredStructure,
  type EntryOf,
  type LiveStructure,
} from './site-structure.js';
import {
  absentHere,
  callBelow,
  listBelow,
  type ChildRead,
  type EntryReference,
  type KindDoc,
} from './types.js';
import type { AnySiteListKind, EntryChecks, Lists as ListsOf, Optional } from './shapes.js';
import type { AnySiteFacet } from './value-shapes.js';

/**
 * What a site holds besides its own fields: its facets (publication, adaptive schema), the lists
 * inside it (share links) and its structure (site-structure.ts). The site module (site.ts)
 * includes every one named here in its config, normalization, checks, reads, export and diff.
 */
export const siteFacets = [
  publicationKind,
  adaptiveSchemaKind,
  siteCustomizationKind,
  siteVisitorAuthKind,
  siteAgentSettingsKind,
  siteGrantKind,
] as const;
export const siteListKinds = [shareLinkKind, externalLinkKind, siteRedirectKind] as const;
/** The GET of a site's preview with its drafts (today's API), for the pull request comment. */
export const sitePreviewCall = previewCall;
/** The operations of a site's parts besides its structure. */
export type SitePartOp =
  | PublicationOp
  | AdaptiveSchemaOp
  | SiteCustomizationOp
  | SiteVisitorAuthOp
  | SiteAgentSettingsOp
  | ShareLinkOp
  | ExternalLinkOp
  | SiteRedirectOp
  | SiteGrantOp;

export const anySiteFacets: readonly AnySiteFacet[] = siteFacets;
export const anySiteListKinds: readonly AnySiteListKind[] = siteListKinds;

type Facets = (typeof siteFacets)[number];
type Lists = (typeof siteListKinds)[number];

/** Where a deleted published path of the site goes (decision 36): a path of the site or a URL. */
const Fallback = z
  .string()
  .min(1)
  .max(2048)
  .refine(
    (s) => s.startsWith('/') || /^https?:\/\//i.test(s),
    'must be a path of this site (/guides) or an http(s) URL',
  )
  .optional()
  .describe(
    'Optional (current API). Where the published paths of sections and site spaces that a plan deletes redirect to (a path of this site after the plan, or an http(s) URL). Omitted: such a plan is refused unless a redirect for each path is declared or policy.brokenLinks is allow.',
  );

/** The desired and live parts of a site (undefined: not managed, or not read). */
export type DesiredSiteParts = Optional<Facets, 'D'> &
  ListsOf<Lists, 'D'> &
  DesiredStructure & { redirectFallback?: string };
export type LiveSiteParts = Optional<Facets, 'L'> & ListsOf<Lists, 'L'> & LiveStructure;

type PartsShape = {
  [K in Facets as K['key']]: z.ZodOptional<K['config']>;
} & {
  [K in Lists as K['key']]: z.ZodOptional<z.ZodArray<K['config']>>;
} & typeof structureShape & { redirectFallback: typeof Fallback };

/** The parts' keys that api.md lacks: the structure's, and each site list kind's absent there. */
export const partsAbsentKeys: readonly string[] = [
  ...structureAbsentKeys,
  ...anySiteListKinds.filter((k) => k.absentIn?.includes('seed')).map((k) => k.key),
];

/** A site entry's parts, as the config gives them. */
export type PartsConfig = { [K in keyof PartsShape]?: z.infer<PartsShape[K]> };

/** The keys the parts take in a site entry of the config. */
export const partsShape = {
  ...Object.fromEntries(siteFacets.map((k) => [k.key, k.config.optional().describe(k.describe)])),
  ...Object.fromEntries(siteListKinds.map((k) => [k.key, z.array(k.config).optional().describe(k.describe)])),
  ...structureShape,
  redirectFallback: Fallback,
} as PartsShape;

export function normalizeParts(entry: PartsConfig, indirect?: CertificateRef): DesiredSiteParts {
  // Facets, then lists, then the structure: the order of the desired state (and of a plan's JSON).
  const parts: Record<string, unknown> = {};
  for (const f of anySiteFacets) {
    const value = valueIn(entry, f.key);
    if (value !== undefined) parts[f.key] = f.normalize(value, indirect);
  }
  for (const kind of anySiteListKinds) {
    const list = listIn(entry, kind.key);
    if (list) parts[kind.key] = list.map((item) => kind.normalize(item));
  }
  if (entry.redirectFallback !== undefined) parts['redirectFallback'] = entry.redirectFallback;
  return Object.assign(parts, normalizeStructure(entry)) as DesiredSiteParts;
}

export function checkParts(entry: PartsConfig, on: EntryChecks): void {
  // The issues come out in file order (config/semantic.ts), whatever the order of the checks.
  checkStructure(entry, on);
  // The names of the structure matter only to place links (most sites have none: issue 33).
  if (entry.externalLinks) checkLinkPlaces(entry.externalLinks, structureNames(entry), on);
  on.nested(anySiteListKinds);
}

/** What the parts of a site entry name (a grant's team or member), below the entry. */
export function partsReferences(entry: DesiredSiteParts, title: string): EntryReference[] {
  // A loop, not a `flatMap` with an empty array per facet: asked two or three times a site (issue 33).
  const out = emptyList<EntryReference>();
  for (const f of anySiteFacets) {
    const value = valueIn(entry, f.key);
    if (value === undefined || !f.references) continue;
    for (const r of f.references(value, title)) out.push({ ...r, path: [f.key, ...r.path] });
  }
  return out;
}

/** The parts the site's own answer carries (its publication). */
export function partsFromSite(answer: Record<string, unknown>): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  for (const f of anySiteFacets)
    if ('fromSite' in f.read) {
      const value = f.read.fromSite(answer);
      if (value !== undefined) parts[f.key] = value;
    }
  return parts;
}

/**
 * Facets read for more than their own key: the site's customization, for the site spaces whose
 * entries give overrides (read, not diffed: the site's entry may not manage it).
 */
const alsoReadFor: Record<string, (d: DesiredSiteParts) => boolean> = {
  customization: (d) => givesOverrides(d),
};

/** The reads below a live site, for the parts its config entry manages (all, for export). */
export function partReads<L extends { id: string }>(): ChildRead<L, EntryOf<L, DesiredSiteParts>>[] {
  const manages = (key: string) => (site: L, entryOf: EntryOf<L, DesiredSiteParts>) => {
    const d = entryOf(site);
    return d !== undefined && valueIn(d, key) !== undefined;
  };
  return [
    ...structureReads<L>(),
    ...anySiteListKinds.map((kind) => {
      const read = kind.read;
      const attach = (site: L, items: unknown[]) =>
        withField(
          site,
          kind.key,
          items.map((x) => read.live(x as never)),
        );
      const absentIn = kind.absentIn ?? [];
      return 'list' in read
        ? listBelow({
            absentIn,
            wanted: manages(kind.key),
            // Each item made live as its page arrives (decision 42).
            list: (org: string, site: L) => ({
              ...read.list(org, site.id),
              live: (x: unknown) => read.live(x as never),
            }),
            attach: (site: L, items: unknown[]) => withField(site, kind.key, items),
          })
        : callBelow({
            absentIn,
            wanted: manages(kind.key),
            call: (org: string, site: L) => read.call(org, site.id),
            attach: (site: L, answer) => attach(site, read.items(answer)),
          });
    }),
    ...anySiteFacets.flatMap((f) => {
      const read = f.read;
      const wanted = alsoReadFor[f.key]
        ? (site: L, entryOf: EntryOf<L, DesiredSiteParts>) => {
            const d = entryOf(site);
            return manages(f.key)(site, entryOf) || (d !== undefined && alsoReadFor[f.key]!(d));
          }
        : manages(f.key);
      if ('lists' in read)
        return read.lists('', '').map((_, i) =>
          listBelow({
            wanted,
            ...(f.absentIn ? { absentIn: f.absentIn } : {}),
            list: (org: string, site: L) => read.lists(org, site.id)[i]!,
            // Each list makes a part of the value: the parts are joined.
            attach: (site: L, items: unknown[]) =>
              withField(site, f.key, [
                ...((valueIn(site, f.key) as unknown[] | undefined) ?? []),
                ...(read.live(items as never[]) as unknown[]),
              ]),
          }),
        );
      return 'call' in read
        ? [
            callBelow({
              wanted,
              call: (org: string, site: L) => read.call(org, site.id),
              attach: (site: L, answer) => withField(site, f.key, read.live(answer as never)),
              absentIn: f.absentIn,
            }),
          ]
        : [];
    }),
  ];
}

/** The site's live customization document, when read (a site space's overrides differ from it). */
function siteCustomizationOf(l: LiveSiteParts): Record<string, unknown> | undefined {
  const doc = valueIn(l, 'customization');
  return doc && typeof doc === 'object' ? (doc as Record<string, unknown>) : undefined;
}

/** The parts of a live site as config entries, in the order a site's file shows them. */
export function exportParts(
  l: LiveSiteParts,
  title: string,
  warnings: string[],
  caps: ApiCapabilities,
): PartsConfig {
  const parts: Record<string, unknown> = {};
  for (const f of anySiteFacets) {
    const value = f.export(valueIn(l, f.key), caps);
    if (value !== undefined) parts[f.key] = value;
  }
  for (const kind of anySiteListKinds) parts[kind.key] = kind.export(listIn(l, kind.key) ?? [], l);
  // Built key by key from the registry; each value is its kind's export of the config entry.
  return { ...parts, ...exportStructure(l, title, warnings, siteCustomizationOf(l)) } as PartsConfig;
}

/** Live ids of a site's draft sections and site spaces (a hidden one is published: not among them). */
function liveDrafts(l: LiveStructure): Set<string> | undefined {
  // One pass, no intermediate arrays, no set for a site without drafts (most: issue 33).
  let drafts: Set<string> | undefined;
  const add = (x: { id: string; draft?: boolean }) => {
    if (x.draft) (drafts ??= new Set()).add(x.id);
  };
  // Sections, then their site spaces, then the site's own: the order of the ids (and their paths).
  for (const section of l.sections ?? []) add(section);
  for (const section of l.sections ?? []) for (const ss of section.spaces) add(ss);
  for (const ss of l.spaces ?? []) add(ss);
  return drafts;
}

/** The parts' changes: facets, then the structure, then the lists (the plan's order follows). */
export function diffParts(
  ctx: DiffContext,
  site: SiteScope,
  title: string,
  d: DesiredSiteParts,
  l: LiveSiteParts | undefined,
): void {
  for (const facet of anySiteFacets) {
    const wanted = valueIn(d, facet.key);
    const found = l ? (valueIn(l, facet.key) ?? null) : undefined;
    if (wanted !== undefined) facet.diff(ctx, site, title, wanted, found);
  }
  site.served = (l as { published?: unknown } | undefined)?.published === true;
  site.entries = d;
  if (d.redirectFallback !== undefined) site.fallback = d.redirectFallback;
  // Only the redirects read the paths the structure's diff records and the live drafts (whose
  // paths are not published): neither is made where the API lacks them.
  if (!absentHere(siteRedirectKind, ctx.caps)) {
    site.pathsRead = true;
    const drafts = l && liveDrafts(l);
    if (drafts) site.drafts = drafts;
  }
  // Only the external links read what may be placed among the site's items (their own kind).
  if (listIn(d, externalLinkKind.key) !== undefined) site.navRead = true;
  diffSiteStructure(ctx, site, title, d, l, l && siteCustomizationOf(l));
  for (const kind of anySiteListKinds) {
    const wanted = listIn(d, kind.key);
    if (wanted || kind.plansUnmanaged)
      kind.diff(
        ctx,
        site,
        title,
        wanted ?? [],
        (wanted && l && listIn(l, kind.key)) || [],
        wanted !== undefined,
      );
  }
}

/** What the reference says of the parts' keys. */
export const partsDocs: Record<string, KindDoc> = {
  ...Object.fromEntries([...anySiteFacets, ...anySiteListKinds].flatMap((kind) => Object.entries(kind.docs))),
  ...structureDocs,
};
