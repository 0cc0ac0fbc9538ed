import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, warn, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import { SET_AFTER_CREATION, type Patch, type Ref } from '../model/change.js';
import { pagesOf, wholeOf, type ArrivingList, type Wait } from '../model/arriving.js';
import type { Renamable } from '../model/desired.js';
import type { AgentsContext, Visibility } from '../model/kinds.js';
import { diffParts, type DesiredSiteParts, type LiveSiteParts } from './site-parts.js';

/**
 * The diff of a site's own fields, beside site.ts, which declares the kind: the desired and live
 * site and its operations (re-exported by site.ts), the sites paired by identity, each created or
 * updated with its parts' diffs (site-parts.ts), then the sites the config does not describe pruned.
 */

export type SiteOp =
  | { type: 'create-site'; org: string; title: string; visibility?: string }
  | { type: 'update-site'; org: string; site: Ref; patch: Patch }
  | { type: 'delete-site'; org: string; site: Ref };

type OwnFields = {
  title: string;
  visibility?: Visibility;
  basename?: string;
  agentsContext?: AgentsContext;
  adaptiveContent?: { enabled: boolean };
  proxy?: string | null;
  defaultLevel?: string | null;
};
export type DesiredSite = Renamable & OwnFields & DesiredSiteParts;
export type LiveSite = LiveSiteParts & {
  id: string;
  title: string;
  visibility: Visibility;
  basename: string | null;
  agentsContext: AgentsContext | null;
  adaptiveContent: { enabled: boolean } | null;
  proxy: string | null;
  /** Today's API (absent: not read). */
  defaultLevel?: string | null;
};

const OWN_FIELDS = [
  'title',
  'visibility',
  'basename',
  'agentsContext',
  'adaptiveContent',
  'proxy',
  'defaultLevel',
] as const;
const SET_AFTER_CREATE = ['basename', 'agentsContext', 'adaptiveContent', 'proxy', 'defaultLevel'] as const;

/** A site's address in the plan. */
export const siteAddress = (org: string, title: string) => `${org}/sites/${title}`;

/** One site's own fields: its creation or update, which its parts' defaults ride on. */
function diffOne(ctx: DiffContext, d: DesiredSite, l: LiveSite | undefined): void {
  const { org } = ctx;
  const drafts = kindDrafts<SiteOp>(ctx, 'site');
  const addr = siteAddress(org, d.title);
  const createKey = `create:${addr}`;
  ctx.siteRefs.set(d.title, l ? { ref: liveRef(l.id) } : { ref: createdRef(createKey), createKey });
  if (d.agentsContext !== undefined && !ctx.caps.agentsContext)
    warn(ctx, `site "${d.title}": agentsContext is not part of the current API and is ignored`);
  // `createKey` named, undefined for a live site, not spread in: a spread amid a literal copies in
  // V8's runtime, once a site (issue 33). Every reader reads its value.
  const site: SiteScope = {
    addr,
    ref: l ? liveRef(l.id) : createdRef(createKey),
    createKey: l ? undefined : createKey,
    patch: { before: {}, after: {}, body: {}, deps: [] },
  };
  if (!l) {
    drafts.create({
      address: addr,
      after: { title: d.title, ...(d.visibility ? { visibility: d.visibility } : {}) },
      op: { type: 'create-site', org, title: d.title, ...(d.visibility ? { visibility: d.visibility } : {}) },
    });
    const follow = fieldsToSet(d, SET_AFTER_CREATE);
    if (follow) Object.assign(site.patch, { after: { ...follow }, body: { ...follow } });
    site.patch.deps.push(createKey);
  } else {
    const diff = changedFields(d, l, OWN_FIELDS);
    if (diff)
      Object.assign(site.patch, { before: diff.before, after: { ...diff.after }, body: { ...diff.after } });
  }
  if (!ctx.caps.agentsContext)
    for (const side of [site.patch.body, site.patch.after, site.patch.before]) delete side['agentsContext'];
  diffParts(ctx, site, d.title, d, l);
  if (Object.keys(site.patch.after).length > 0)
    drafts.update({
      address: addr,
      before: l ? site.patch.before : null,
      after: site.patch.after,
      deps: site.patch.deps,
      ...(l ? {} : { note: SET_AFTER_CREATION }),
      op: { type: 'update-site', org, site: site.ref, patch: site.patch.body },
    });
}

/**
 * The sites' diff, a site at a time (its `diff` runs them at once): it reads nothing other kinds'
 * diffs write. While the list is read (`arriving`), the sites are paired once its pages are read
 * (a site's title is on its page) and each site is diffed once the reads below it (its sections)
 * are done, in the pairs' order: the diff runs while the other sites' sections are still read.
 */
export function* diffSteps(
  ctx: DiffContext,
  desired: DesiredSite[],
  live: LiveSite[],
  arriving?: ArrivingList<LiveSite>,
): Generator<void | Wait, void, undefined> {
  const { pairs, leftover } = pairSites(ctx, desired, arriving ? yield* pagesOf(arriving) : live);
  yield;
  for (const [d, l] of pairs) {
    diffOne(ctx, d, l && arriving ? yield* wholeOf(arriving, l) : l);
    yield;
  }
  // Their id and title, as paged: the same as whole.
  pruneSites(ctx, leftover);
}

function pairSites(ctx: DiffContext, desired: DesiredSite[], live: readonly LiveSite[]) {
  countLive(ctx, 'site', live.length);
  return pairByIdentity(ctx, 'site', desired, live, (x) => x.title);
}

/** The live sites the config does not describe. */
function pruneSites(ctx: DiffContext, leftover: readonly LiveSite[]): void {
  const drafts = kindDrafts<SiteOp>(ctx, 'site');
  for (const l of leftover) {
    const addr = siteAddress(ctx.org, l.title);
    drafts.prune({
      address: addr,
      id: l.id,
      before: { title: l.title },
      op: { type: 'delete-site', org: ctx.org, site: liveRef(l.id) },
    });
  }
}
