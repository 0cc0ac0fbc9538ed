import { address, type DesiredSite, type LiveSite, SET_AFTER_CREATION } from '../model/index.js';
import { pairByIdentity, warn, type DiffContext, pruneOrList } from './context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from './draft.js';
import { anySiteFacets, anySiteListKinds, listIn } from '../kinds/registry.js';
import { diffGroups } from './groups.js';
import type { SiteScope } from './site-scope.js';
import { diffStructure } from './structure.js';

const SITE_FIELDS = ['title', 'visibility', 'basename', 'agentsContext', 'adaptiveContent', 'proxy'] as const;
const SET_AFTER_CREATE = ['basename', 'agentsContext', 'adaptiveContent', 'proxy'] as const;

/** Sites by title (or pinned id), and everything inside each site. */
export function diffSites(ctx: DiffContext, desired: DesiredSite[], live: LiveSite[]): void {
  const { drafts, org } = ctx;
  ctx.managedLive.count += live.length;
  const { pairs, leftover } = pairByIdentity(ctx, 'site', desired, live, (x) => x.title);
  for (const [d, l] of pairs) {
    const addr = address.site(org, d.title);
    ctx.siteRefs.set(
      d.title,
      l ? { ref: liveRef(l.id) } : { ref: createdRef(`create:${addr}`), createKey: `create:${addr}` },
    );
    if (d.agentsContext !== undefined && !ctx.caps.agentsContext)
      warn(ctx, `site "${d.title}": agentsContext is not part of the current API and is ignored`);
    const site: SiteScope = {
      addr,
      ref: l ? liveRef(l.id) : { id: '' },
      patch: { before: {}, after: {}, body: {}, deps: [] },
    };
    if (!l) {
      site.createKey = `create:${addr}`;
      site.ref = createdRef(site.createKey);
      drafts.add({
        key: site.createKey,
        action: 'create',
        kind: 'site',
        address: addr,
        before: null,
        after: { title: d.title, ...(d.visibility ? { visibility: d.visibility } : {}) },
        op: {
          type: 'create-site',
          org,
          title: d.title,
          ...(d.visibility ? { visibility: d.visibility } : {}),
        },
      });
      const follow = fieldsToSet(d, SET_AFTER_CREATE);
      if (follow) {
        Object.assign(site.patch.after, follow);
        Object.assign(site.patch.body, follow);
      }
      site.patch.deps.push(site.createKey);
    } else {
      const diff = changedFields(d, l, SITE_FIELDS);
      if (diff) {
        Object.assign(site.patch.before, diff.before);
        Object.assign(site.patch.after, diff.after);
        Object.assign(site.patch.body, diff.after);
      }
    }
    if (!ctx.caps.agentsContext && site.patch.body['agentsContext'] !== undefined) {
      delete site.patch.body['agentsContext'];
      delete site.patch.after['agentsContext'];
      delete site.patch.before['agentsContext'];
    }
    for (const facet of anySiteFacets) {
      const wanted = (d as Record<string, unknown>)[facet.key];
      const found = l ? ((l as Record<string, unknown>)[facet.key] ?? null) : undefined;
      if (wanted !== undefined) facet.diff(ctx, site, d.title, wanted, found);
    }
    const slots = d.sections || d.spaces ? diffStructure(ctx, site, d, l) : [];
    if (d.sectionGroups) diffGroups(ctx, site, d, l, slots);
    for (const kind of anySiteListKinds) {
      const wanted = listIn(d, kind.key);
      if (wanted) kind.diff(ctx, site, d.title, wanted, (l && listIn(l, kind.key)) ?? []);
    }
    if (Object.keys(site.patch.after).length > 0)
      drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'site',
        address: addr,
        before: l ? site.patch.before : null,
        after: site.patch.after,
        deps: site.patch.deps,
        ...(l ? {} : { note: SET_AFTER_CREATION }),
        op: { type: 'update-site', org, site: site.ref, patch: site.patch.body },
      });
  }
  for (const l of leftover) {
    const addr = address.site(org, l.title);
    pruneOrList(ctx, {
      key: `delete:${addr}#${l.id}`,
      kind: 'site',
      address: addr,
      before: { title: l.title },
      op: { type: 'delete-site', org, site: liveRef(l.id) },
    });
  }
}
