import type { KindDrafts } from '../diff/builder.js';
import { pairByIdentity, type DiffContext } from '../diff/context.js';
import { liveRef } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { Fields } from '../model/change.js';
import { defined } from './fields.js';
import { BULK_MAX } from './site-redirect-api.js';
import {
  address,
  desiredRedirects,
  liveKey,
  liveShown,
  type Declared,
  type LiveSiteRedirect,
  type Resolved,
  type SiteRedirectOp,
} from './site-redirect-resolve.js';

/**
 * The diff of a site's redirects (today's API), beside site-redirect.ts, which declares the kind:
 * the redirects the plan wants (site-redirect-resolve.ts) paired with the live ones by source,
 * then upserts (one bulk call when that is fewer calls, single calls otherwise) and deletions
 * (single calls: the guards count each).
 */

const KEEPS_A_LINK =
  'it keeps an old URL working; declare it, or set policy.brokenLinks: allow to let policy.prune remove it';

const shownFields = (r: Resolved): Fields =>
  defined({ destination: r.shown, permanent: r.permanent, captureWildcard: r.captureWildcard });

/** The resources the planned redirects among `upserts` keep the URLs of (a partial plan takes them along). */
function followsOf(upserts: readonly { r: Resolved }[]): { follows?: string[] } {
  const follows = [...new Set(upserts.flatMap((u) => u.r.follows ?? []))];
  return follows.length > 0 ? { follows } : {};
}

/** A redirect to create or change: its resolved entry, the live one, and what changes. */
type Upsert = { r: Resolved; l?: LiveSiteRedirect; before: Fields | null; after: Fields; patch: Fields };

/** Plan the redirects of one site: pair the resolved ones with the live ones by source, upsert, prune. */
export function diffRedirects(
  ctx: DiffContext,
  drafts: KindDrafts<SiteRedirectOp>,
  site: SiteScope,
  siteTitle: string,
  { declared, live, managed }: { declared: Declared[]; live: LiveSiteRedirect[]; managed: boolean },
): void {
  const desired = desiredRedirects(ctx, site, siteTitle, declared);
  const { pairs, leftover } = pairByIdentity(
    ctx,
    `site "${siteTitle}": redirect`,
    desired,
    live,
    (x) => x.source,
  );
  const upserts: Upsert[] = [];
  for (const [r, l] of pairs) {
    const u = upsertOf(site, r, l);
    if (u) upserts.push(u);
  }
  // A single call when that is as few calls as the bulk one; the bulk upsert otherwise (or when
  // the live list was not read: it creates or replaces whatever is there).
  if (managed && upserts.length === 1) singleUpsert(ctx, drafts, site, upserts[0]!);
  else bulkUpserts(ctx, drafts, site, upserts);
  pruneRedirects(ctx, drafts, site, leftover);
}

/** What a resolved redirect changes of its live one (all of it when new); undefined when nothing. */
function upsertOf(site: SiteScope, r: Resolved, l: LiveSiteRedirect | undefined): Upsert | undefined {
  if (!l) return { r, before: null, after: shownFields(r), patch: {} };
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
  return Object.keys(after).length > 0 ? { r, l, before, after, patch } : undefined;
}

/** One redirect to create or update: its own call. */
function singleUpsert(
  ctx: DiffContext,
  drafts: KindDrafts<SiteRedirectOp>,
  site: SiteScope,
  u: Upsert,
): void {
  const { org } = ctx;
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
}

/** The upserts in bulk calls of at most BULK_MAX redirects each. */
function bulkUpserts(
  ctx: DiffContext,
  drafts: KindDrafts<SiteRedirectOp>,
  site: SiteScope,
  upserts: Upsert[],
): void {
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
      op: {
        type: 'upsert-site-redirects',
        org: ctx.org,
        site: site.ref,
        redirects: chunk.map((u) => u.r.body),
      },
    });
  }
}

/**
 * The live redirects the config omits. A redirect to a section or site space keeps an old URL
 * working (a plan may have added it): pruning it would break that URL, so it is left alone unless
 * policy.brokenLinks is allow.
 */
function pruneRedirects(
  ctx: DiffContext,
  drafts: KindDrafts<SiteRedirectOp>,
  site: SiteScope,
  leftover: LiveSiteRedirect[],
): void {
  for (const l of leftover) {
    const keeps = ctx.brokenLinks !== 'allow' && l.destination.kind !== 'external';
    drafts.prune(
      {
        address: address(site.addr, l.source),
        id: l.id,
        before: { destination: liveShown(l.destination, site.paths?.liveById) },
        op: { type: 'delete-site-redirect', org: ctx.org, site: site.ref, redirect: liveRef(l.id) },
      },
      keeps ? false : ctx.prune,
      keeps ? KEEPS_A_LINK : undefined,
    );
  }
}
