import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import type { Ref } from '../model/change.js';
import { teamRoles, type TeamRole } from '../model/kinds.js';
import type { KindModule } from './types.js';
import { dict } from '../model/dict.js';

/** The whole membership of a team: one change sets it (adds, removes, roles). Part of a team's entry. */

export type TeamMembersOp = {
  type: 'set-team-members';
  org: string;
  team: Ref;
  add: string[];
  remove: string[];
  memberships: Record<string, { role: TeamRole }>;
};

export const MemberEntry = z.union([
  z.string().min(1).describe('User id or e-mail; role member.'),
  z.strictObject({
    user: z.string().min(1).describe('User id or e-mail.'),
    role: z.enum(teamRoles).optional().describe('owner or member (default member).'),
  }),
]);
export type MemberEntry = z.infer<typeof MemberEntry>;

export type DesiredTeamMember = { user: string; role: TeamRole };
export type LiveTeamMember = { userId: string; email: string | null; role: TeamRole };

/** A plain string is shorthand for `{ user }` with role `member`. */
export const memberOf = (m: MemberEntry): DesiredTeamMember =>
  typeof m === 'string' ? { user: m, role: 'member' } : { user: m.user, role: m.role ?? 'member' };

export const exportMember = (m: LiveTeamMember): MemberEntry =>
  m.role === 'member' ? (m.email ?? m.userId) : { user: m.email ?? m.userId, role: m.role };

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
export const MemberAnswer = z.looseObject({
  organization: z.looseObject({
    id: z.string(),
    user: z.looseObject({ id: z.string(), email: nullish(z.string()) }),
  }),
  team: z.looseObject({ role: z.enum(teamRoles) }),
});
export type MemberAnswer = z.infer<typeof MemberAnswer>;

export const liveMember = (m: MemberAnswer): LiveTeamMember => ({
  userId: m.organization.user.id,
  email: m.organization.user.email ?? null,
  role: m.team.role,
});

export const MEMBERS = '/orgs/{org}/teams/{team}/members';

/** The difference between a team's desired and live membership, as one change (or none). */
export function diffTeamMembers(
  ctx: DiffContext,
  teamAddr: string,
  team: Ref,
  createKey: string | undefined,
  desired: DesiredTeamMember[],
  live: LiveTeamMember[],
): void {
  const drafts = kindDrafts<TeamMembersOp>(ctx, 'team-members');
  const matches = (user: string, m: LiveTeamMember) =>
    m.userId === user || (m.email !== null && m.email.toLowerCase() === user.toLowerCase());
  const add: string[] = [];
  const memberships = dict<{ role: TeamRole }>();
  const before = dict<unknown>();
  const after = dict<unknown>();
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
  const addr = `${teamAddr}/members`;
  drafts.update({
    address: addr,
    before,
    after,
    deps: [createKey],
    op: { type: 'set-team-members', org: ctx.org, team, add, remove, memberships },
  });
}

export const teamMembersKind: KindModule<TeamMembersOp, 'team-members'> = {
  kind: 'team-members',
  ops: {
    'set-team-members': {
      call: (op, r) => ({
        method: 'PUT',
        route: MEMBERS,
        params: { org: op.org, team: r.ref(op.team) },
        body: { add: op.add, remove: op.remove, memberships: op.memberships },
        expect: [200, 204],
      }),
    },
  },
};
