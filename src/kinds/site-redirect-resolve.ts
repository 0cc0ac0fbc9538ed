import type { DiffContext } from '../diff/context.js';
import { problem } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { Fields, Ref } from '../model/change.js';
import { defined } from './fields.js';
import {
  draftPaths,
  planLinks,
  type BrokenLinkSetting,
  type LinkDestination,
  type OldPath,
  type PathTarget,
} from '../diff/site-paths.js';
import { matchesAddress } from '../model/address-glob.js';
import { placedAddress, sectionAddress, structureTarget, targetIdOf } from './site-section.js';
import type { LiveDestination } from './site-redirect-api.js';

/**
 * A site's redirects as the plan wants them (beside site-redirect.ts, which declares the kind):
 * the declared ones with those the plan adds so that the published paths it changes keep working
 * (decision 36), resolved to the bodies the API takes; the links the plan breaks are reported.
 * site-redirect-diff.ts plans the calls from them.
 */

export const address = (site: string, source: string) => `${site}/redirects${source}`;

/** A redirect as a config declares it (the kind's config entry). */
export type Declared = {
  source: string;
  destination: string | { path: string; page: string };
  permanent?: boolean | undefined;
  captureWildcard?: boolean | undefined;
};

/** A destination as the API takes it: references to what the plan creates are resolved when it runs. */
type Destination = Record<string, unknown>;

/** One redirect in the API's words (`destination` may hold `{ $ref }` values). */
export type Body = {
  source: string;
  destination: Destination;
  permanent?: boolean;
  captureWildcard?: boolean;
};

export type SiteRedirectOp =
  | { type: 'create-site-redirect'; org: string; site: Ref; redirect: Body }
  | { type: 'update-site-redirect'; org: string; site: Ref; redirect: Ref; patch: Fields }
  | { type: 'delete-site-redirect'; org: string; site: Ref; redirect: Ref }
  | { type: 'upsert-site-redirects'; org: string; site: Ref; redirects: Body[] };

/** A live redirect; `destination` in the API's shape. */
export type LiveSiteRedirect = {
  id: string;
  source: string;
  destination: LiveDestination;
  permanent: boolean;
  captureWildcard: boolean;
};

/** A destination's identity, to compare a desired one with a live one. */
export function liveKey(d: LiveDestination): string {
  if (d.kind === 'external') return `external:${d.url}`;
  return `${d.kind}:${targetIdOf(d)}${d.kind === 'site-page' ? `:${d.pageId}` : ''}`;
}

/** A desired redirect, resolved: the body to send, its identity, and how people read it. */
export type Resolved = {
  id?: string;
  source: string;
  body: Body;
  key: string | undefined;
  shown: string;
  deps: (string | undefined)[];
  permanent?: boolean;
  captureWildcard?: boolean;
  /** A planned redirect: the addresses of the section or site space whose old path it keeps. */
  follows?: string[];
};

function toBody(
  dest: LinkDestination<PathTarget>,
  page?: string,
): Pick<Resolved, 'body' | 'key' | 'shown' | 'deps'> | null {
  if ('url' in dest)
    return {
      body: { source: '', destination: { kind: 'external', url: dest.url } },
      key: `external:${dest.url}`,
      shown: dest.url,
      deps: [],
    };
  const t = dest.to;
  const section = t.type === 'section-path';
  if (section && page !== undefined) return null;
  const shown = dest.path ?? t.path ?? t.label;
  return {
    body: { source: '', destination: structureTarget(section, { $ref: t.ref }, page) },
    key: t.liveId ? liveKey(structureTarget(section, t.liveId, page) as LiveDestination) : undefined,
    shown: page === undefined ? shown : `${shown} page ${page}`,
    deps: [t.createKey],
  };
}

/** How people read a live destination: the live path it leads to, or its URL. */
export function liveShown(d: LiveDestination, paths: Map<string, string> | undefined): string {
  if (d.kind === 'external') return d.url;
  const id = targetIdOf(d);
  const path = paths?.get(id) ?? `${d.kind} ${id}`;
  return d.kind === 'site-page' ? `${path} page ${d.pageId}` : path;
}

function withSource(
  r: Pick<Resolved, 'body' | 'key' | 'shown' | 'deps'>,
  source: string,
  extra: Partial<Body>,
): Resolved {
  const body: Body = { ...r.body, source, ...extra };
  return { ...r, source, body, ...extra };
}

/**
 * In a partial plan (`--target`), the old paths of the targeted sections and site spaces only: the
 * others do not move in this plan, so they need no redirect and break no link.
 */
const targeted =
  (ctx: DiffContext) =>
  (o: OldPath): boolean =>
    !ctx.targets || (o.addresses ?? []).some((a) => ctx.targets!.some((t) => matchesAddress(t, a)));

/**
 * The config entry whose own `brokenLinks` decided for an old path: a site space's entry (by its
 * space) when it sets one, else the section it keeps its segment in; a section's entry by its path
 * after the plan. Its address and its path in the site's entry, for the refusal to name it.
 */
function settingOf(site: SiteScope, o: OldPath | undefined): BrokenLinkSetting | undefined {
  const sections = site.entries?.sections ?? [];
  const space = o?.label.startsWith('site space ') ? o.label.slice('site space '.length) : undefined;
  if (o && space !== undefined) {
    const root = (site.entries?.spaces ?? []).findIndex((e) => e.space === space && e.brokenLinks);
    if (root >= 0)
      return { address: placedAddress(site.addr, undefined, space), path: ['spaces', root, 'brokenLinks'] };
    for (const [i, s] of sections.entries()) {
      const k = s.spaces.findIndex((e) => e.space === space);
      if (k < 0) continue;
      const sectionAddr = sectionAddress(site.addr, s.path);
      if (s.spaces[k]!.brokenLinks)
        return {
          address: placedAddress(site.addr, s.path, space),
          path: ['sections', i, 'spaces', k, 'brokenLinks'],
        };
      if (s.brokenLinks) return { address: sectionAddr, path: ['sections', i, 'brokenLinks'] };
    }
    return undefined;
  }
  const i = sections.findIndex((s) => s.brokenLinks && `/${s.path}` === o?.target?.path);
  return i < 0
    ? undefined
    : { address: sectionAddress(site.addr, sections[i]!.path), path: ['sections', i, 'brokenLinks'] };
}

/** The site's declared redirects with the planned ones (a declared source wins), resolved. */
export function desiredRedirects(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  declared: Declared[],
): Resolved[] {
  const paths = site.paths;
  const byPath = new Map(
    declared.flatMap((d) => (typeof d.destination === 'string' ? [[d.source, d.destination] as const] : [])),
  );
  const links = planLinks<PathTarget>({
    policy: ctx.brokenLinks,
    ...(site.fallback !== undefined ? { fallback: site.fallback } : {}),
    old:
      site.served && paths
        ? paths.old.filter(targeted(ctx)).map((o) => ({
            ...o,
            ...(o.target?.path !== undefined ? { targetPath: o.target.path } : {}),
          }))
        : [],
    after: paths?.after ?? new Map(),
    declared: byPath,
    ...(paths && site.drafts ? { drafts: draftPaths(paths.liveById, site.drafts) } : {}),
  });
  const hint = paths
    ? ''
    : " (the site's sections or spaces are not in the configuration, so docsync does not know its paths)";
  reportLinks(ctx, site, siteTitle, links, hint);
  const out = resolveDeclared(ctx, site, `site "${siteTitle}"`, declared, links, hint);
  addPlanned(ctx, siteTitle, declared, links, out);
  return out;
}

type Links = ReturnType<typeof planLinks<PathTarget>>;

/** The link problems, and the links the plan breaks (with the entry whose `brokenLinks` allowed it). */
function reportLinks(ctx: DiffContext, site: SiteScope, siteTitle: string, links: Links, hint: string): void {
  const where = `site "${siteTitle}"`;
  for (const p of links.problems) problem(ctx, `${where}: ${p.message}${hint}`, p.code);
  for (const b of links.broken) {
    const setting = b.ownPolicy
      ? settingOf(
          site,
          site.paths?.old.find((o) => o.path === b.path),
        )
      : undefined;
    ctx.links.broken.push({
      site: siteTitle,
      address: address(site.addr, b.path),
      path: b.path,
      what: b.label,
      reason: b.reason,
      ...(setting ? { setting } : {}),
    });
  }
}

/** The declared redirects, resolved (a destination that is not in the site after the plan is a problem). */
function resolveDeclared(
  ctx: DiffContext,
  site: SiteScope,
  where: string,
  declared: Declared[],
  links: Links,
  hint: string,
): Resolved[] {
  const paths = site.paths;
  const out: Resolved[] = [];
  for (const d of declared) {
    const extra = defined({ permanent: d.permanent, captureWildcard: d.captureWildcard }) as Partial<Body>;
    let dest: LinkDestination<PathTarget> | undefined;
    let page: string | undefined;
    if (typeof d.destination === 'string') dest = links.resolved.get(d.source);
    else {
      page = d.destination.page;
      const t = paths?.after.get(d.destination.path);
      if (t) dest = { to: t, path: d.destination.path };
      else
        problem(
          ctx,
          `${where}: redirect ${d.source}: ${d.destination.path} is not a site space of the site after this plan${hint}`,
          'unknown-redirect-destination',
        );
    }
    if (!dest) continue;
    const body = toBody(dest, page);
    if (!body) {
      problem(
        ctx,
        `${where}: redirect ${d.source}: a page is in a site space, and ${d.destination as unknown as string} is a section`,
        'unknown-redirect-destination',
      );
      continue;
    }
    out.push(withSource(body, d.source, extra));
  }
  return out;
}

/** The redirects the plan adds for the paths it changes, unless one is declared for their source. */
function addPlanned(
  ctx: DiffContext,
  siteTitle: string,
  declared: Declared[],
  links: Links,
  out: Resolved[],
): void {
  const taken = new Set(declared.map((d) => d.source));
  for (const p of links.planned) {
    if (taken.has(p.source)) continue;
    const body = toBody(p.destination)!;
    const r = withSource(body, p.source, {
      permanent: true,
      ...(p.captureWildcard ? { captureWildcard: true } : {}),
    });
    out.push(p.addresses ? { ...r, follows: p.addresses } : r);
    ctx.links.planned.push({ site: siteTitle, source: p.source, destination: body.shown, reason: p.reason });
  }
}
