import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import type { Ref } from '../model/change.js';
import { teamRoles, type TeamRole } from '../model/kinds.js';
import type { EntryReference, KindModule } from './types.js';
import { dict } from '../model/dict.js';
import { emptyList } from '../model/holey.js';

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

/** Whether a live member is the user an entry names (by id, or by e-mail in any case). */
const matches = (user: string, m: LiveTeamMember) =>
  m.userId === user ||
  // The same e-mail first (most entries): no scan of both for their lower case.
  (m.email !== null && (m.email === user || m.email.toLowerCase() === user.toLowerCase()));

/** Members a team may have for `membersAsLive` to tell them apart in one integer's bits. */
const MEMBERS_AS_BITS = 30;

/**
 * Whether the membership reads as the live one (most teams of most plans, every team of a drift
 * check nobody changed; issue 33): each entry's member, the first live one that matches it (as
 * `diffTeamMembers` finds it), has its role, and they are as many as the live members and each a
 * different one, so that none is added, removed or given another role. Found without the
 * change's maps, set and arrays a team; a team of more than 30 members takes the full diff.
 */
export function membersAsLive(
  desired: readonly DesiredTeamMember[],
  live: readonly LiveTeamMember[],
): boolean {
  const n = live.length;
  if (desired.length !== n || n > MEMBERS_AS_BITS) return false;
  let kept = 0;
  for (let i = 0; i < n; i += 1) {
    const d = desired[i]!;
    let j = 0;
    while (j < n && !matches(d.user, live[j]!)) j += 1;
    if (j === n || live[j]!.role !== d.role || (kept & (1 << j)) !== 0) return false;
    kept |= 1 << j;
  }
  return true;
}

/** The difference between a team's desired and live membership, as one change (or none). */
export function diffTeamMembers(
  ctx: DiffContext,
  teamAddr: string,
  team: Ref,
  createKey: string | undefined,
  desired: DesiredTeamMember[],
  live: LiveTeamMember[],
): void {
  if (membersAsLive(desired, live)) return;
  const change = membersChange(desired, live);
  if (!change) return;
  const { add, remove, memberships, before, after } = change;
  kindDrafts<TeamMembersOp>(ctx, 'team-members').update({
    address: `${teamAddr}/members`,
    before,
    after,
    deps: [createKey],
    op: { type: 'set-team-members', org: ctx.org, team, add, remove, memberships },
  });
}

/** What a team's membership change adds, removes and gives another role, and its fields (null: none). */
export function membersChange(desired: readonly DesiredTeamMember[], live: readonly LiveTeamMember[]) {
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
  if (add.length === 0 && remove.length === 0 && Object.keys(memberships).length === 0) return null;
  return { add, remove, memberships, before, after };
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

/**
 * The members a team's entry names, those `wanted` wants (the proof asks with a live twin's
 * members: on a request-heavy organization it wants none of 12,000), each located with its
 * holder's text only when wanted: a loop into one array, not a reference, a path and a holder
 * per member made for the proof to throw away (issue 33). An array of the elements kind of a
 * site's (`emptyList`): the proof's loop reads both.
 */
export function teamReferences(
  team: { readonly title: string; readonly members?: readonly DesiredTeamMember[] },
  _org?: never,
  wanted: (target: string, id: string) => boolean = wantsAll,
): EntryReference[] {
  const out = emptyList<EntryReference>();
  const members = team.members;
  if (members === undefined) return out;
  let holder: string | undefined;
  for (let j = 0; j < members.length; j += 1) {
    const user = members[j]!.user;
    if (!wanted('member', user)) continue;
    holder ??= `team "${team.title}"`;
    out.push({ target: 'member', id: user, path: ['members', j, 'user'], holder });
  }
  return out;
}

const wantsAll = (): boolean => true;

/**
 * The ids and e-mails a live team names, in an array of the elements kind of a site's space ids
 * (`emptyList`, then pushed): the proof's loop reads both, and `flatMap`'s holey array deoptimized
 * it (wrong map, issue 33).
 */
export function memberNames(team: { readonly members?: readonly LiveTeamMember[] }): string[] {
  const names = emptyList<string>();
  for (const m of team.members ?? []) {
    names.push(m.userId);
    if (m.email) names.push(m.email);
  }
  return names;
}
