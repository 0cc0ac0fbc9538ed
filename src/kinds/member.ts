import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { problem, type DiffContext } from '../diff/context.js';
import type { MemberRole } from '../model/kinds.js';
import { Role } from './fields.js';
import type { ListKind } from './shapes.js';
import type { KindExamples } from './examples.js';

/**
 * The roles of an organization's members, by user; a listed e-mail that is not a member is invited
 * (today's API: one call for all of a plan's invitations). Members are removed only with
 * `policy.pruneMembers`.
 */

export type MemberOp =
  | { type: 'update-member'; org: string; userId: string; role: string | null }
  | { type: 'remove-member'; org: string; userId: string }
  | { type: 'invite-members'; org: string; invites: { email: string; role: string | null }[] };

/** `email` is the same as `user`, said of someone who may not be a member yet (CONTRACT section 6). */
const Config = z
  .strictObject({
    user: z.string().min(1).optional().describe('User id or e-mail of an organization member.'),
    email: z
      .email()
      .max(320)
      .optional()
      .describe(
        "E-mail of a member, or of someone to invite with `role` (today's API) when not a member yet.",
      ),
    role: Role.nullable().describe('Role in the organization; null for guest.'),
  })
  .refine((m) => (m.user === undefined) !== (m.email === undefined), {
    message: 'give either user or email, not both',
  })
  .transform((m) => ({ user: (m.user ?? m.email)!, role: m.role }));
type Config = z.output<typeof Config>;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export type DesiredMember = { user: string; role: MemberRole | null };
export type LiveMember = { userId: string; email: string | null; role: MemberRole | null };

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
const Answer = z.looseObject({
  id: z.string(),
  role: nullish(Role),
  user: z.looseObject({ id: z.string(), email: nullish(z.string()) }),
});
type Answer = z.infer<typeof Answer>;

const ROUTE = '/orgs/{org}/members/{user}';
const address = (org: string, user: string) => `${org}/members/${user}`;

/** Why a member the config omits is left alone (the plan says exactly this). */
export const MEMBER_KEPT = {
  self: "it is the token's own user (never removed)",
  noPruneMembers: 'policy.pruneMembers is false (policy.prune never removes members)',
  selfUnknown: "the token's own user is unknown (no member is removed)",
} as const;

/**
 * Roles of the listed members. Members the config omits are removed only with
 * `policy.pruneMembers: true` (never through `policy.prune`), and never the token's own user. The
 * admins the plan leaves are counted for the `policy.minAdmins` guard.
 */
function diff(ctx: DiffContext, desired: DesiredMember[], live: LiveMember[]): void {
  const drafts = kindDrafts<MemberOp>(ctx, 'member');
  const self = ctx.self;
  const matches = (user: string, m: LiveMember) =>
    m.userId === user || (m.email !== null && m.email.toLowerCase() === user.toLowerCase());
  const kept = new Set<LiveMember>();
  const roleAfter = new Map<LiveMember, MemberRole | null>(live.map((m) => [m, m.role]));
  const invites: { email: string; role: MemberRole | null }[] = [];
  for (const d of desired) {
    const m = live.find((x) => matches(d.user, x));
    if (!m && EMAIL.test(d.user) && ctx.caps.invites) {
      invites.push({ email: d.user, role: d.role });
      continue;
    }
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
    roleAfter.set(m, d.role);
    const addr = address(ctx.org, d.user);
    drafts.update({
      address: addr,
      before: { role: m.role },
      after: { role: d.role },
      op: { type: 'update-member', org: ctx.org, userId: m.userId, role: d.role },
    });
  }
  if (invites.length > 0)
    drafts.create({
      address: `${ctx.org}/members/invitations`,
      after: { invite: invites.map((i) => `${i.email} (${i.role ?? 'guest'})`) },
      note: 'one call for every invitation; the API lists no pending invitation, so one not yet accepted is sent again by the next apply',
      op: { type: 'invite-members', org: ctx.org, invites },
    });
  for (const m of live) {
    if (kept.has(m)) continue;
    const addr = address(ctx.org, m.email ?? m.userId);
    const isSelf = self !== null && m.userId === self;
    const remove = ctx.pruneMembers && self !== null && !isSelf;
    if (remove) roleAfter.delete(m);
    drafts.prune(
      {
        address: addr,
        before: { role: m.role },
        op: { type: 'remove-member', org: ctx.org, userId: m.userId },
      },
      remove,
      isSelf ? MEMBER_KEPT.self : ctx.pruneMembers ? MEMBER_KEPT.selfUnknown : MEMBER_KEPT.noPruneMembers,
    );
  }
  if (ctx.pruneMembers && self === null && live.length > kept.size)
    problem(
      ctx,
      'members: cannot tell which user the token belongs to, so no member is removed; list the members to keep or set policy.pruneMembers: false',
      'token-user-unknown',
    );
  ctx.admins = {
    before: live.filter((m) => m.role === 'admin').length,
    after: [...roleAfter.values()].filter((r) => r === 'admin').length,
  };
}

/** What the reference says about members; member.test.ts holds the behaviour to these words. */
export const MEMBER_NOTES = [
  "docsync sets the roles of the listed members. With today's API, a listed e-mail (`email:`, or an e-mail under `user:`) that is not a member is invited with its role, all of a plan's invitations in one call; the API lists no pending invitation, so one not yet accepted is sent again by the next apply. With api.md's API, which cannot invite, it is a plan error.",
  'Members not listed are left alone, even with `policy.prune: true`: they are removed only with `policy.pruneMembers: true`.',
  "The token's own user is never removed, and a plan that would leave fewer admins than `policy.minAdmins` (default 1) is refused.",
];

export const memberKind: ListKind<'members', Config, DesiredMember, LiveMember, MemberOp, 'member'> = {
  kind: 'member',
  key: 'members',
  config: Config,
  describe:
    'Roles of the listed members; others are left alone unless policy.pruneMembers is true (policy.prune never removes members).',
  configBefore: 'collections',
  docs: {
    'members[]': {
      title: 'member roles',
      identity: '`user` (a user id or e-mail)',
      notes: MEMBER_NOTES,
      example: [
        { user: 'alice@example.com', role: 'admin' },
        { user: 'bob@example.com', role: 'edit' },
        { email: 'new.writer@example.com', role: 'edit' },
      ],
    },
  },
  unique: { what: 'member', key: 'user', caseless: true },
  normalize: (m) => ({ user: m.user, role: m.role }),
  reads: [
    {
      list: (org) => ({ route: '/orgs/{org}/members', params: { org }, item: Answer }),
      live: (m: Answer): LiveMember => ({
        userId: m.user.id,
        email: m.user.email ?? null,
        role: m.role ?? null,
      }),
    },
  ],
  needsSelf: true,
  lookup: {
    target: 'member',
    noun: 'member',
    caseless: true,
    names: (m: LiveMember) => (m.email ? [m.email, m.userId] : [m.userId]),
  },
  diff,
  diffPhase: 'after-settings',
  export: {
    file: 'organization.yaml',
    header: 'member roles',
    entries: (live) => live?.map((m) => ({ user: m.email ?? m.userId, role: m.role })),
  },
  ops: {
    'invite-members': {
      needs: 'invites',
      call: (op) => ({
        method: 'POST',
        route: '/orgs/{org}/invites',
        params: { org: op.org },
        body: { emails: op.invites.map((i) => ({ email: i.email, role: i.role })) },
        expect: [200],
      }),
    },
    'update-member': {
      call: (op) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, user: op.userId },
        body: { role: op.role },
        expect: [200],
        answer: Answer,
      }),
    },
    'remove-member': {
      call: (op, _r, caps) => ({
        method: 'DELETE',
        route: ROUTE,
        params: { org: op.org, user: op.userId },
        expect: caps.deleteAnswers,
      }),
    },
  },
  examples: {
    pairs: [
      {
        config: { user: 'b@example.com', role: 'edit' },
        seed: { id: 'user_b', email: 'b@example.com', role: 'edit' },
        changed: { user: 'b@example.com', role: 'admin' },
      },
      {
        config: { user: 'user_c', role: 'read' },
        seed: { id: 'user_c', email: 'c@example.com', role: 'read' },
        changed: { user: 'user_c', role: null },
      },
    ],
    policy: { pruneMembers: true },
  } satisfies KindExamples<Config>,
};
