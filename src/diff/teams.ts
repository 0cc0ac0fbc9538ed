import {
  address,
  type DesiredTeam,
  type LiveTeam,
  type LiveTeamMember,
  type Ref,
  type TeamRole,
} from '../model/index.js';
import { pairByIdentity, type DiffContext, pruneOrList } from './context.js';
import { createdRef, liveRef } from './draft.js';

/** Teams by title (or pinned id); a team's whole membership difference is one change. */
export function diffTeams(ctx: DiffContext, desired: DesiredTeam[], live: LiveTeam[]): void {
  const { drafts, org } = ctx;
  ctx.managedLive.count += live.length;
  const { pairs, leftover } = pairByIdentity(
    ctx,
    'team',
    desired,
    live,
    (d) => d.id,
    (x) => x.title,
    (d) => d.previously,
  );
  for (const [d, l] of pairs) {
    const addr = address.team(org, d.title);
    let ref: Ref;
    let createKey: string | undefined;
    ctx.teamRefs.set(
      d.title,
      l ? { ref: liveRef(l.id) } : { ref: createdRef(`create:${addr}`), createKey: `create:${addr}` },
    );
    if (!l) {
      createKey = `create:${addr}`;
      drafts.add({
        key: createKey,
        action: 'create',
        kind: 'team',
        address: addr,
        before: null,
        after: { title: d.title },
        op: { type: 'create-team', org, title: d.title },
      });
      ref = createdRef(createKey);
    } else {
      ref = liveRef(l.id);
      if (l.title !== d.title)
        drafts.add({
          key: `update:${addr}`,
          action: 'update',
          kind: 'team',
          address: addr,
          before: { title: l.title },
          after: { title: d.title },
          op: { type: 'update-team', org, team: ref, title: d.title },
        });
    }
    if (d.members) diffMembers(ctx, addr, ref, createKey, d.members, l?.members ?? []);
  }
  for (const l of leftover) {
    const addr = address.team(org, l.title);
    pruneOrList(ctx, {
      key: `delete:${addr}#${l.id}`,
      kind: 'team',
      address: addr,
      before: { title: l.title },
      op: { type: 'delete-team', org, team: liveRef(l.id) },
    });
  }
}

function diffMembers(
  ctx: DiffContext,
  teamAddr: string,
  team: Ref,
  createKey: string | undefined,
  desired: { user: string; role: TeamRole }[],
  live: LiveTeamMember[],
): void {
  const matches = (user: string, m: LiveTeamMember) =>
    m.userId === user || (m.email !== null && m.email.toLowerCase() === user.toLowerCase());
  const add: string[] = [];
  const memberships: Record<string, { role: TeamRole }> = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const kept = new Set<LiveTeamMember>();
  for (const d of desired) {
    const m = live.find((x) => matches(d.user, x));
    if (!m) {
      add.push(d.user);
      memberships[d.user] = { role: d.role };
      before[d.user] = null;
      after[d.user] = d.role;
      continue;
    }
    kept.add(m);
    if (m.role !== d.role) {
      memberships[d.user] = { role: d.role };
      before[d.user] = m.role;
      after[d.user] = d.role;
    }
  }
  const remove: string[] = [];
  for (const m of live) {
    if (kept.has(m)) continue;
    remove.push(m.userId);
    const label = m.email ?? m.userId;
    before[label] = m.role;
    after[label] = null;
  }
  if (add.length === 0 && remove.length === 0 && Object.keys(memberships).length === 0) return;
  const addr = address.teamMembers(teamAddr);
  ctx.drafts.add({
    key: `update:${addr}`,
    action: 'update',
    kind: 'team-members',
    address: addr,
    before,
    after,
    deps: [createKey],
    op: { type: 'set-team-members', org: ctx.org, team, add, remove, memberships },
  });
}
