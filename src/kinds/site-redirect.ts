import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, problem, type DiffContext } from '../diff/context.js';
import { liveRef } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { Fields, Ref } from '../model/change.js';
import { nullish } from '../model/schema.js';
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
import { absentHere, deleteCall, idOutput } from './types.js';
import type { SiteListKind } from './shapes.js';
import type { KindExamples } from './examples.js';
import { BULK_MAX, LIST, LiveDestination, ROUTE, Source } from './site-redirect-api.js';
import { emulator } from './site-redirect-emulated.js';

/**
 * A site's redirects (today's API), by source path, and the redirects a plan adds so that the
 * published paths it changes keep working (decision 36). Upserts go in one bulk call when that is
 * fewer calls (two or more), single calls otherwise; deletions are single calls (the guards count
 * each).
 */

/** A destination as the API takes it: references to what the plan creates are resolved when it runs. */
type Destination = Record<string, unknown>;

/** One redirect in the API's words (`destination` may hold `{ $ref }` values). */
type Body = { source: string; destination: Destination; permanent?: boolean; captureWildcard?: boolean };

export type SiteRedirectOp =
  | { type: 'create-site-redirect'; org: string; site: Ref; redirect: Body }
  | { type: 'update-site-redirect'; org: string; site: Ref; redirect: Ref; patch: Fields }
  | { type: 'delete-site-redirect'; org: string; site: Ref; redirect: Ref }
  | { type: 'upsert-site-redirects'; org: string; site: Ref; redirects: Body[] };

const isUrl = (s: string) => /^https?:\/\//i.test(s);
const SitePath = z.string().regex(/^\/\S*$/, 'must be a path of this site such as /guides/v2');

const Config = z.strictObject({
  source: Source.describe(
    'Identity of the redirect within its site: the path it redirects from (at most 512 characters; a trailing * or /* also matches what is below it).',
  ),
  destination: z
    .union([
      z
        .string()
        .min(1)
        .max(2048)
        .refine(
          (s) => s.startsWith('/') || isUrl(s),
          'must be a path of this site (/guides, /guides/v2) or an http(s) URL',
        ),
      z.strictObject({
        path: SitePath.describe('The path of the site space that holds the page (/guides/v2).'),
        page: z.string().min(1).describe('The id of the page in that site space.'),
      }),
    ])
    .describe(
      'Where it leads: a path of this site after the plan (/guides is a section, /guides/v2 a site space; a path that the plan moves away follows its own redirect), an http(s) URL, or { path, page } for a page of the site space at that path.',
    ),
  permanent: z
    .boolean()
    .optional()
    .describe(
      'Optional. Served as 308 (permanent) rather than 307 to public traffic. Omitted: false on creation, then unmanaged.',
    ),
  captureWildcard: z
    .boolean()
    .optional()
    .describe(
      'Optional. Append what a wildcard source matched to the destination. Omitted: false on creation, then unmanaged.',
    ),
});
type Config = z.infer<typeof Config>;

export type DesiredSiteRedirect = Config;
/** A live redirect; `destination` in the API's shape. */
export type LiveSiteRedirect = {
  id: string;
  source: string;
  destination: LiveDestination;
  permanent: boolean;
  captureWildcard: boolean;
};

const Answer = z.looseObject({
  id: z.string(),
  source: z.string(),
  destination: LiveDestination,
  permanent: nullish(z.boolean()),
  captureWildcard: nullish(z.boolean()),
});
type Answer = z.infer<typeof Answer>;

/** What the bulk call answers: one result per redirect; an `error` result fails the change. */
const BulkAnswer = z.looseObject({
  results: z.array(z.looseObject({ status: z.enum(['created', 'updated', 'deleted']), source: z.string() })),
});

const list = (org: string, site: string) => ({ route: LIST, params: { org, site }, item: Answer });
const address = (site: string, source: string) => `${site}/redirects${source}`;

/** A destination's identity, to compare a desired one with a live one. */
function liveKey(d: LiveDestination): string {
  if (d.kind === 'external') return `external:${d.url}`;
  return `${d.kind}:${targetIdOf(d)}${d.kind === 'site-page' ? `:${d.pageId}` : ''}`;
}

/** A desired redirect, resolved: the body to send, its identity, and how people read it. */
type Resolved = {
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
function liveShown(d: LiveDestination, paths: Map<string, string> | undefined): string {
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
function desiredRedirects(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  declared: DesiredSiteRedirect[],
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
  const where = `site "${siteTitle}"`;
  const hint = paths
    ? ''
    : " (the site's sections or spaces are not in the configuration, so docsync does not know its paths)";
  for (const p of links.problems) problem(ctx, `${where}: ${p.message}${hint}`, p.code);
  for (const b of links.broken) {
    const setting = b.ownPolicy
      ? settingOf(
          site,
          paths?.old.find((o) => o.path === b.path),
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
  return out;
}

const KEEPS_A_LINK =
  'it keeps an old URL working; declare it, or set policy.brokenLinks: allow to let policy.prune remove it';

const shownFields = (r: Resolved): Fields =>
  defined({ destination: r.shown, permanent: r.permanent, captureWildcard: r.captureWildcard });

/** The resources the planned redirects among `upserts` keep the URLs of (a partial plan takes them along). */
function followsOf(upserts: readonly { r: Resolved }[]): { follows?: string[] } {
  const follows = [...new Set(upserts.flatMap((u) => u.r.follows ?? []))];
  return follows.length > 0 ? { follows } : {};
}

function diff(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  declared: DesiredSiteRedirect[],
  live: LiveSiteRedirect[],
  managed: boolean,
): void {
  if (absentHere(siteRedirectKind, ctx.caps)) return;
  const { org } = ctx;
  const drafts = kindDrafts<SiteRedirectOp>(ctx, 'site-redirect');
  if (managed) countLive(ctx, 'site-redirect', live.length);
  const desired = desiredRedirects(ctx, site, siteTitle, declared);
  const { pairs, leftover } = pairByIdentity(
    ctx,
    `site "${siteTitle}": redirect`,
    desired,
    live,
    (x) => x.source,
  );
  const upserts: {
    r: Resolved;
    l?: LiveSiteRedirect;
    before: Fields | null;
    after: Fields;
    patch: Fields;
  }[] = [];
  for (const [r, l] of pairs) {
    if (!l) {
      upserts.push({ r, before: null, after: shownFields(r), patch: {} });
      continue;
    }
    const before: Fields = {};
    const after: Fields = {};
    const patch: Fields = {};
    if (r.key !== liveKey(l.destination)) {
      before['destination'] = liveShown(l.destination, site.paths?.liveById);
      after['destination'] = r.shown;
      patch['destination'] = r.body.destination;
    }
    for (const f of ['permanent', 'captureWildcard'] as const)
      if (r[f] !== undefined && r[f] !== l[f]) {
        before[f] = l[f];
        after[f] = r[f];
        patch[f] = r[f];
      }
    if (Object.keys(after).length > 0) upserts.push({ r, l, before, after, patch });
  }
  // A single call when that is as few calls as the bulk one; the bulk upsert otherwise (or when
  // the live list was not read: it creates or replaces whatever is there).
  if (managed && upserts.length === 1) {
    const u = upserts[0]!;
    const addr = address(site.addr, u.r.source);
    const follows = followsOf([u]);
    if (!u.l)
      drafts.create({
        address: addr,
        ...follows,
        after: u.after,
        deps: [site.createKey, ...u.r.deps],
        op: { type: 'create-site-redirect', org, site: site.ref, redirect: u.r.body },
      });
    else
      drafts.update({
        address: addr,
        ...follows,
        before: u.before,
        after: u.after,
        deps: u.r.deps,
        op: { type: 'update-site-redirect', org, site: site.ref, redirect: liveRef(u.l.id), patch: u.patch },
      });
  } else
    for (let i = 0; i < upserts.length; i += BULK_MAX) {
      const chunk = upserts.slice(i, i + BULK_MAX);
      const before: Fields = {};
      const after: Fields = {};
      for (const u of chunk) {
        before[u.r.source] = u.l ? liveShown(u.l.destination, site.paths?.liveById) : null;
        after[u.r.source] = u.r.shown;
      }
      const created = chunk.filter((u) => !u.l).length;
      const n = chunk.length;
      drafts.update({
        address: `${site.addr}/redirects${i === 0 ? '' : `#${i / BULK_MAX + 1}`}`,
        ...followsOf(chunk),
        before,
        after,
        deps: [site.createKey, ...chunk.flatMap((u) => u.r.deps)],
        note: `1 bulk replace (${n} ${n === 1 ? 'change' : 'changes'}: ${created} to create, ${n - created} to update)`,
        op: { type: 'upsert-site-redirects', org, site: site.ref, redirects: chunk.map((u) => u.r.body) },
      });
    }
  // A redirect to a section or site space keeps an old URL working (a plan may have added it):
  // pruning it would break that URL, so it is left alone unless policy.brokenLinks is allow.
  for (const l of leftover) {
    const keeps = ctx.brokenLinks !== 'allow' && l.destination.kind !== 'external';
    drafts.prune(
      {
        address: address(site.addr, l.source),
        id: l.id,
        before: { destination: liveShown(l.destination, site.paths?.liveById) },
        op: { type: 'delete-site-redirect', org, site: site.ref, redirect: liveRef(l.id) },
      },
      keeps ? false : ctx.prune,
      keeps ? KEEPS_A_LINK : undefined,
    );
  }
}

/** The live redirects as config entries: destinations named by the live paths of the site. */
function exportRedirects(live: LiveSiteRedirect[], paths: Map<string, string>): DesiredSiteRedirect[] {
  return live.flatMap((l): DesiredSiteRedirect[] => {
    const d = l.destination;
    let destination: DesiredSiteRedirect['destination'];
    if (d.kind === 'external') destination = d.url;
    else {
      const at = paths.get(targetIdOf(d));
      if (at === undefined) return [];
      destination = d.kind === 'site-page' ? { path: at, page: d.pageId } : at;
    }
    return [
      {
        source: l.source,
        destination,
        ...(l.permanent ? { permanent: true } : {}),
        ...(l.captureWildcard ? { captureWildcard: true } : {}),
      },
    ];
  });
}

/** The live paths of a live site's sections and site spaces, by id. */
function livePaths(site: object): Map<string, string> {
  const paths = new Map<string, string>();
  type LivePlace = { id: string; path: string };
  const s = site as { sections?: { id: string; path: string; spaces: LivePlace[] }[]; spaces?: LivePlace[] };
  for (const sec of s.sections ?? []) {
    paths.set(sec.id, `/${sec.path}`);
    for (const ss of sec.spaces) paths.set(ss.id, `/${sec.path}/${ss.path}`);
  }
  for (const ss of s.spaces ?? []) paths.set(ss.id, `/${ss.path}`);
  return paths;
}

export const siteRedirectKind: SiteListKind<
  'redirects',
  Config,
  DesiredSiteRedirect,
  LiveSiteRedirect,
  SiteRedirectOp,
  'site-redirect'
> = {
  kind: 'site-redirect',
  key: 'redirects',
  config: Config,
  describe:
    "Optional (current API). The site's redirects, by source. Omitted: its redirects are not read or changed, except the ones a plan adds for the published paths it changes.",
  docs: {
    'sites[].redirects[]': {
      title: 'redirects',
      identity: '`source` within the site',
      notes: [
        'A `destination` is a path of the site after the plan (`/guides` is a section, `/guides/v2` a site space), an http(s) URL, or `{ path, page }` for a page of the site space at that path; docsync sends the API the section, site space or page it names, so a redirect follows its destination when it moves later.',
        'A plan that changes, moves or deletes a published section or site space path adds the redirects that keep the old URLs working (the path and what is below it, `permanent`), shows them, and refuses a plan that would break one: see `policy.brokenLinks` and `redirectFallback` (decision 36). A redirect declared for the same source wins over a planned one; a declared destination that the plan moves away follows its planned redirect (chains collapse), and a loop is an error.',
        'Two or more creations or updates of one site go in one bulk call (up to 500 redirects a call); one goes in a single call; each deletion (only with `policy.prune`) is its own call.',
        '`policy.prune` deletes an undeclared redirect to a URL; one to a section, site space or page keeps an old URL working and is left alone (listed as unmanaged) unless `policy.brokenLinks` is `allow`.',
        'Current API only (`--api-flavor current`).',
        'For example `redirects: [ { source: /old-guides, destination: /guides, permanent: true }, { source: /status, destination: https://status.example.com } ]`.',
      ],
    },
    'sites[].redirects[].destination': {
      title: 'redirect destination',
      notes: [
        'A string: a path of the site (`/guides`, `/guides/v2`) or an http(s) URL. An object `{ path, page }`: the page with that id in the site space at `path`.',
      ],
    },
  },
  unique: { what: 'redirect', key: 'source' },
  normalize: (r) =>
    defined({
      source: r.source,
      destination: r.destination,
      permanent: r.permanent,
      captureWildcard: r.captureWildcard,
    }) as DesiredSiteRedirect,
  absentIn: ['seed'],
  absent: (caps) =>
    `redirects (sites[].redirects) are not in this API: api.md has no site redirects; remove them or use ${caps.otherwise}`,
  plansUnmanaged: true,
  emulator,
  read: {
    list,
    live: (r: Answer): LiveSiteRedirect => ({
      id: r.id,
      source: r.source,
      destination: r.destination,
      permanent: r.permanent ?? false,
      captureWildcard: r.captureWildcard ?? false,
    }),
  },
  diff,
  export: (live, site) => exportRedirects(live, livePaths(site)),
  ops: {
    'create-site-redirect': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: r.patch(op.redirect),
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op, r) => list(op.org, r.ref(op.site)),
        find: (l: Answer, op) => l.source === op.redirect.source,
        output: idOutput,
      },
    },
    'update-site-redirect': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site), redirect: r.ref(op.redirect) },
        body: r.patch(op.patch),
        expect: [200],
      }),
    },
    'delete-site-redirect': {
      call: (op, r, caps) =>
        deleteCall(ROUTE, { org: op.org, site: r.ref(op.site), redirect: r.ref(op.redirect) }, caps),
    },
    'upsert-site-redirects': {
      call: (op, r) => ({
        method: 'PUT',
        route: LIST,
        params: { org: op.org, site: r.ref(op.site) },
        body: {
          redirects: (Array.isArray(op.redirects) ? op.redirects : []).map((x) => ({
            ...r.patch(x),
            intent: 'live',
          })),
        },
        expect: [200],
        answer: BulkAnswer,
      }),
    },
  },
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: { source: '/status', destination: 'https://status.example.com', permanent: true },
        seed: {
          source: '/status',
          destination: { kind: 'external', url: 'https://status.example.com' },
          permanent: true,
        },
        changed: { source: '/status', destination: 'https://status.example.com/now', permanent: true },
      },
      {
        config: { source: '/help/*', destination: 'https://help.example.com', captureWildcard: true },
        seed: {
          source: '/help/*',
          destination: { kind: 'external', url: 'https://help.example.com' },
          captureWildcard: true,
        },
        changed: { source: '/help/*', destination: 'https://help.example.com', captureWildcard: false },
      },
    ],
  } satisfies KindExamples<Config>,
};
