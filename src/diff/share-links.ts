import { address, type DesiredSite, type LiveSite, SET_AFTER_CREATION } from '../model/index.js';
import { pruneOrList, type DiffContext } from './context.js';
import { createdRef, liveRef } from './draft.js';
import type { SiteScope } from './site-scope.js';

/** The API creates share links active. */
export const SHARE_LINK_CREATED_ACTIVE = true;

/** Share links of one site, by name. Their URLs are secrets and never enter the plan. */
export function diffShareLinks(
  ctx: DiffContext,
  site: SiteScope,
  d: DesiredSite,
  l: LiveSite | undefined,
): void {
  const { drafts, org } = ctx;
  const live = l?.shareLinks ?? [];
  ctx.managedLive.count += live.length;
  const byName = new Map(live.map((x) => [x.name, x]));
  for (const dl of d.shareLinks ?? []) {
    const addr = address.shareLink(site.addr, dl.name);
    const ll = byName.get(dl.name);
    if (!ll) {
      const key = `create:${addr}`;
      drafts.add({
        key,
        action: 'create',
        kind: 'share-link',
        address: addr,
        before: null,
        after: { name: dl.name },
        deps: [site.createKey],
        op: { type: 'create-share-link', org, site: site.ref, name: dl.name },
      });
      if (dl.active !== undefined && dl.active !== SHARE_LINK_CREATED_ACTIVE)
        drafts.add({
          key: `update:${addr}`,
          action: 'update',
          kind: 'share-link',
          address: addr,
          before: null,
          after: { active: dl.active },
          deps: [key],
          note: SET_AFTER_CREATION,
          op: {
            type: 'update-share-link',
            org,
            site: site.ref,
            shareLink: createdRef(key),
            patch: { active: dl.active },
          },
        });
      continue;
    }
    if (dl.active !== undefined && dl.active !== ll.active)
      drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'share-link',
        address: addr,
        before: { active: ll.active },
        after: { active: dl.active },
        op: {
          type: 'update-share-link',
          org,
          site: site.ref,
          shareLink: liveRef(ll.id),
          patch: { active: dl.active },
        },
      });
  }
  const wanted = new Set((d.shareLinks ?? []).map((x) => x.name));
  for (const ll of live) {
    if (wanted.has(ll.name)) continue;
    const addr = address.shareLink(site.addr, ll.name);
    pruneOrList(ctx, {
      key: `delete:${addr}#${ll.id}`,
      kind: 'share-link',
      address: addr,
      before: { name: ll.name },
      op: { type: 'delete-share-link', org, site: site.ref, shareLink: liveRef(ll.id) },
    });
  }
}
