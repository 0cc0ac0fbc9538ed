import { address, type DesiredSettings, type LiveSettings } from '../model/index.js';
import { problem, type DiffContext } from './context.js';
import { changedFields } from './draft.js';

/** Organization settings: one update with every field that differs. */
export function diffSettings(ctx: DiffContext, d: DesiredSettings, l: LiveSettings): void {
  const diff = changedFields(d, l, [
    'title',
    'emailDomains',
    'hostname',
    'defaultRole',
    'inviteLinks',
    'sso',
    'ai',
  ]);
  const before = { ...(diff?.before ?? {}) };
  const after = { ...(diff?.after ?? {}) };
  const patch: Record<string, unknown> = { ...after };
  const deps: (string | undefined)[] = [];
  if (d.defaultContent !== undefined) {
    if (d.defaultContent === null) {
      if (l.defaultContent !== null) {
        before['defaultContent'] = l.defaultContent;
        after['defaultContent'] = null;
        patch['defaultContent'] = null;
      }
    } else {
      const site = ctx.siteRefs.get(d.defaultContent.site);
      if (!site)
        problem(
          ctx,
          `settings.defaultContent names the site "${d.defaultContent.site}", which does not exist`,
        );
      else if (!('id' in site.ref) || site.ref.id !== l.defaultContent) {
        before['defaultContent'] = l.defaultContent;
        after['defaultContent'] = { site: d.defaultContent.site };
        patch['defaultContent'] = { type: 'site', site: { $ref: site.ref } };
        deps.push(site.createKey);
      }
    }
  }
  if (Object.keys(after).length === 0) return;
  const addr = address.organization(ctx.org);
  ctx.drafts.add({
    key: `update:${addr}`,
    action: 'update',
    kind: 'organization',
    address: addr,
    before,
    after,
    deps,
    op: { type: 'update-organization', org: ctx.org, patch },
  });
}
