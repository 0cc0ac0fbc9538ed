import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, type DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import { nullish } from '../model/schema.js';
import { defined } from './fields.js';
import { targetIdOf } from './site-section.js';
import { absentHere, deleteCall, idOutput } from './types.js';
import type { SiteListKind } from './shapes.js';
import type { KindExamples } from './examples.js';
import { LIST, LiveDestination, ROUTE, Source } from './site-redirect-api.js';
import { diffRedirects } from './site-redirect-diff.js';
import type { LiveSiteRedirect, SiteRedirectOp } from './site-redirect-resolve.js';
import { emulator } from './site-redirect-emulated.js';

/**
 * A site's redirects (today's API), by source path, and the redirects a plan adds so that the
 * published paths it changes keep working (decision 36). Upserts go in one bulk call when that is
 * fewer calls (two or more), single calls otherwise; deletions are single calls (the guards count
 * each). The diff's steps are in site-redirect-resolve.ts and site-redirect-diff.ts, the API's shapes in site-redirect-api.ts,
 * the emulator's part in site-redirect-emulated.ts.
 */

export type { LiveSiteRedirect, SiteRedirectOp } from './site-redirect-resolve.js';

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
function diff(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  declared: DesiredSiteRedirect[],
  live: LiveSiteRedirect[],
  managed: boolean,
): void {
  if (absentHere(siteRedirectKind, ctx.caps)) return;
  const drafts = kindDrafts<SiteRedirectOp>(ctx, 'site-redirect');
  if (managed) countLive(ctx, 'site-redirect', live.length);
  diffRedirects(ctx, drafts, site, siteTitle, { declared, live, managed });
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
