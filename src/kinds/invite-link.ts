import { z } from 'zod';
import { countLive, pairByIdentity, pruneOrList, type DiffContext } from '../diff/context.js';
import { liveRef } from '../diff/draft.js';
import type { Ref } from '../model/change.js';
import { FINGERPRINT } from '../model/credentials.js';
import { memberRoles, type MemberRole } from '../model/kinds.js';
import { emulated } from './emulated.js';
import { defined, duplicatesOf, previously } from './fields.js';
import { deleteCall, type Credentials } from './types.js';
import type { ListKind } from './shapes.js';

/**
 * Invite links of an organization (today's API: `/orgs/{id}/link-invites`), by role. Whoever holds
 * an invite's id may join: the id is a credential (decision 0031). The live model, plans and export
 * carry its fingerprint; an update or delete finds the id again from a fresh list when it runs.
 * Not `settings.inviteLinks`, the organization's switch that allows invite links at all.
 */

export type InviteLinkOp =
  | { type: 'create-invite-link'; org: string; role: MemberRole | null }
  | { type: 'update-invite-link'; org: string; invite: Ref; role: MemberRole | null }
  | { type: 'delete-invite-link'; org: string; invite: Ref };

/** The role an invite grants; `guest` is the API's null (a guest of the organization). */
const roles = [...memberRoles, 'guest'] as const;
type ConfigRole = (typeof roles)[number];

const Config = z.strictObject({
  role: z
    .enum(roles)
    .describe(
      'Identity of the invite link (unless id is pinned): the role whoever joins through it gets; guest: no role. A changed role with previously (or id) updates the link in place and keeps its URL.',
    ),
  id: z
    .string()
    .regex(FINGERPRINT, 'must be a fingerprint like sha256:3f2a9c0b1d4e (as plan and export show it)')
    .optional()
    .describe(
      "Pin to a live invite link by its fingerprint (sha256: and 12 hex digits, as plan and export show it), never by its id: the id is the link's secret. Omitted: paired by role (or previously).",
    ),
  previously: previously('role'),
});
type Config = z.infer<typeof Config>;

export type DesiredInviteLink = { role: ConfigRole; id?: string; previously?: string[] };
/** `id` is the invite's fingerprint, never its id. */
export type LiveInviteLink = { id: string; role: ConfigRole };

const Answer = z.looseObject({ id: z.string(), role: z.enum(memberRoles).nullable().optional() });
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/link-invites';
const ROUTE = '/orgs/{org}/link-invites/{invite}';
const credentials: Credentials = { id: true };
const list = (org: string) => ({ route: LIST, params: { org }, item: Answer, credentials });
const address = (org: string, role: string) => `${org}/invite-links/${role}`;
const apiRole = (role: ConfigRole): MemberRole | null => (role === 'guest' ? null : role);
const configRole = (role: MemberRole | null | undefined): ConfigRole => role ?? 'guest';

function diff(ctx: DiffContext, desired: DesiredInviteLink[], live: LiveInviteLink[]): void {
  const { org } = ctx;
  countLive(ctx, 'invite-link', live.length);
  const { pairs, leftover } = pairByIdentity(ctx, 'invite link', desired, live, (x) => x.role);
  for (const [d, l] of pairs) {
    const addr = address(org, d.role);
    if (!l)
      ctx.drafts.add({
        key: `create:${addr}`,
        action: 'create',
        kind: 'invite-link',
        address: addr,
        before: null,
        after: { role: d.role },
        op: { type: 'create-invite-link', org, role: apiRole(d.role) },
      });
    else if (l.role !== d.role)
      ctx.drafts.add({
        key: `update:${addr}#${l.id}`,
        action: 'update',
        kind: 'invite-link',
        address: addr,
        before: { role: l.role },
        after: { role: d.role },
        op: { type: 'update-invite-link', org, invite: liveRef(l.id), role: apiRole(d.role) },
      });
  }
  for (const l of leftover) {
    const addr = address(org, l.role);
    pruneOrList(ctx, {
      key: `delete:${addr}#${l.id}`,
      kind: 'invite-link',
      address: addr,
      before: { role: l.role },
      op: { type: 'delete-invite-link', org, invite: liveRef(l.id) },
    });
  }
}

/** The emulator's invite link: its id is the credential. */
type Emulated = { id: string; role: MemberRole | null; createdAt: string };
const RoleOrGuest = z.enum(memberRoles).nullable();

const emulator = emulated({
  in: 'organizations',
  store: 'linkInvites',
  routes: { list: LIST, item: ROUTE },
  noun: 'invite link',
  idPrefix: 'inv',
  create: {
    body: z.object({ role: RoleOrGuest }),
    item: (b, ctx): Emulated => ({ id: ctx.id(), role: b.role, createdAt: ctx.now() }),
  },
  get: true,
  update: {
    method: 'PATCH',
    body: z.object({ role: RoleOrGuest }),
    apply: (i, b) => {
      i.role = b.role;
    },
  },
  delete: { status: 205 },
  answer: (i) => ({ object: 'invite', id: i.id, role: i.role, redundant: false }),
  seed: {
    entry: z.looseObject({ id: z.string().optional(), role: RoleOrGuest.default('read') }),
    item: (x, ctx): Emulated => ({ id: x.id ?? ctx.id(), role: x.role, createdAt: ctx.now() }),
  },
});

export const inviteLinkKind: ListKind<
  'inviteLinks',
  Config,
  DesiredInviteLink,
  LiveInviteLink,
  InviteLinkOp,
  'invite-link'
> = {
  kind: 'invite-link',
  key: 'inviteLinks',
  config: Config,
  describe:
    "The organization's invite links (a list, identity: role). Not settings.inviteLinks, the switch that allows invite links at all. Omitted: not read or changed.",
  docs: {
    'inviteLinks[]': {
      title: 'invite links',
      identity: '`role`, or `id` (a fingerprint) when pinned',
      notes: [
        "An invite link's id is its secret: plans, logs, pages and export show its fingerprint (`sha256:` and 12 hex digits) instead, and `id:` pins by that fingerprint.",
        'Not to be confused with `settings.inviteLinks`, the boolean that allows invite links in the organization.',
        'Current API only (`--api-flavor current`).',
      ],
      example: [{ role: 'read' }, { role: 'edit', previously: ['comment'] }],
    },
  },
  unique: { what: 'invite link', key: 'role', pinned: true },
  normalize: (e) => defined({ role: e.role, id: e.id, previously: e.previously }),
  credentials,
  emulator,
  reads: [{ list, live: (x: Answer): LiveInviteLink => ({ id: x.id, role: configRole(x.role) }) }],
  diff,
  absentIn: ['seed'],
  absent: (caps) =>
    `invite links (inviteLinks) are not in this API: api.md has no link invites; remove inviteLinks or use ${caps.otherwise}`,
  export: {
    file: 'organization.yaml',
    header: 'invite links',
    entries: (live) => {
      if (!live) return undefined;
      const dup = duplicatesOf(live.map((x) => x.role));
      return live.map((x) => ({ role: x.role, ...(dup.has(x.role) ? { id: x.id } : {}) }));
    },
  },
  ops: {
    'create-invite-link': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { role: op.role },
        expect: [201],
        answer: Answer,
        create: true,
        credentials,
      }),
      adopt: {
        list: (op) => list(op.org),
        find: (x: Answer, op) => (x.role ?? null) === op.role,
        output: () => ({}),
      },
    },
    'update-invite-link': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, invite: r.ref(op.invite) },
        body: { role: op.role },
        expect: [200],
        answer: Answer,
        credentials,
      }),
      locate: (op) => list(op.org),
    },
    'delete-invite-link': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, invite: r.ref(op.invite) }, caps),
      locate: (op) => list(op.org),
    },
  },
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: { role: 'read' },
        seed: { id: 'inv_ex_read', role: 'read' },
        changed: { role: 'edit', previously: ['read'] },
      },
      {
        config: { role: 'guest' },
        seed: { id: 'inv_ex_guest', role: null },
        changed: { role: 'comment', previously: ['guest'] },
      },
    ],
  },
};
