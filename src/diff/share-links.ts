import { address, type DesiredSite, type LiveSite, SET_AFTER_CREATION } from '../model/index.js';
import { pairByIdentity, pruneOrList, type DiffContext } from './context.js';
import { changedFields, createdRef, liveRef } from './draft.js';
import type { SiteScope } from './site-scope.js';

/** The API creates share links active. */
export const SHARE_LINK_CREATED_ACTIVE = true;

/** Share links of one site, by name (or pinned id). Their URLs are secrets and never enter the plan. */
export function diffShareLinks(
  ctx: DiffContext,
  site: SiteScope,
  d: DesiredSite,
  l: LiveSite | undefined,
): void {
  const { drafts, org } = ctx;
  const live = l?.shareLinks ?? [];
  ctx.managedLive.count += live.length;
  const { pairs, leftover } = pairByIdentity(
    ctx,
    `site "${d.title}": share link`,
    d.shareLinks ?? [],
    live,
    (x) => x.id,
    (x) => x.name,
    (x) => x.previously,
  );
  for (const [dl, ll] of pairs) {
    const addr = address.shareLink(site.addr, dl.name);
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
    // A rename keeps the link (and its secret URL): one update.
    const diff = changedFields(dl, ll, ['name', 'active']);
    if (diff)
      drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'share-link',
        address: addr,
        ...diff,
        op: {
          type: 'update-share-link',
          org,
          site: site.ref,
          shareLink: liveRef(ll.id),
          patch: diff.after,
        },
      });
  }
  for (const ll of leftover) {
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
