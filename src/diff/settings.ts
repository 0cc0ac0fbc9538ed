import {
  address,
  type DesiredMember,
  type DesiredSettings,
  type LiveMember,
  type LiveSettings,
} from '../model/index.js';
import { problem, type DiffContext, pruneOrList } from './context.js';
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
          'unknown-reference',
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

/** Roles of the listed members. Others are left alone; removal only with prune, never the token's own user. */
export function diffMembers(
  ctx: DiffContext,
  desired: DesiredMember[],
  live: LiveMember[],
  self: string | null,
): void {
  const matches = (user: string, m: LiveMember) =>
    m.userId === user || (m.email !== null && m.email.toLowerCase() === user.toLowerCase());
  const kept = new Set<LiveMember>();
  for (const d of desired) {
    const m = live.find((x) => matches(d.user, x));
    if (!m) {
      problem(
        ctx,
        `members: "${d.user}" is not a member of the organization (docsync sets roles; it does not invite)`,
        'not-a-member',
      );
      continue;
    }
    kept.add(m);
    if (m.role === d.role) continue;
    const addr = address.member(ctx.org, d.user);
    ctx.drafts.add({
      key: `update:${addr}`,
      action: 'update',
      kind: 'member',
      address: addr,
      before: { role: m.role },
      after: { role: d.role },
      op: { type: 'update-member', org: ctx.org, userId: m.userId, role: d.role },
    });
  }
  for (const m of live) {
    if (kept.has(m)) continue;
    const addr = address.member(ctx.org, m.email ?? m.userId);
    pruneOrList(
      ctx,
      {
        key: `delete:${addr}`,
        kind: 'member',
        address: addr,
        before: { role: m.role },
        op: { type: 'remove-member', org: ctx.org, userId: m.userId },
      },
      ctx.prune && m.userId !== self && self !== null,
    );
  }
  if (ctx.prune && self === null && live.length > kept.size)
    problem(
      ctx,
      'members: cannot tell which user the token belongs to, so no member is removed; pin the members to keep or turn prune off',
      'token-user-unknown',
    );
}
