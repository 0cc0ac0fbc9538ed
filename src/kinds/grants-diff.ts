import { kindDrafts, type KindDrafts } from '../diff/builder.js';
import { problem, warn, type DiffContext } from '../diff/context.js';
import { liveRef } from '../diff/draft.js';
import type { OpShape, Ref } from '../model/change.js';
import { grantSubject, type DesiredGrant, type GrantTarget, type LiveGrant } from '../model/grants.js';
import { subjectKind, type GrantSubject, type LiveGrantEntry } from './grants.js';

/**
 * The diff of grants (decision 0034), beside grants.ts, which the three grant kinds share: one
 * object's grants paired by subject, then created, updated or revoked.
 */

/** Why a grant of the token's own user is kept. */
const SELF_KEPT = {
  self: "it is the token's own access (never revoked)",
  unknown: "the token's own user is unknown: no user grant is revoked",
};

/** One object whose grants are diffed: its reference, address, the draft creating it, and its grants. */
type GrantHolder = {
  /** `space`, `collection`, `site`: the plan's words. */
  target: GrantTarget;
  /** Who the object is, for messages (`space space_1`, `site "Docs"`). */
  label: string;
  ref: Ref;
  /** The object's address (`org/spaces/space_1`); its grants are `<address>/access/<subject>`. */
  address: string;
  createKey?: string | undefined;
  desired: DesiredGrant[];
  live: LiveGrant[];
};

/**
 * The key of the change that sets a team's members (they join before the team's grants): the
 * team-members draft at `<team>/members` (team-members.ts), looked up by its address.
 */
const teamMembersKey = (ctx: DiffContext, teamAddr: string): string | undefined =>
  ctx.drafts.at(`${teamAddr}/members`).find((d) => d.kind === 'team-members')?.key;

/** The three targets' operations differ only in their type's middle word. */
const opType = (
  target: GrantHolder['target'],
  verb: 'create' | 'update' | 'delete',
  subject: GrantSubject,
) => (verb === 'create' ? `create-${target}-grant` : `${verb}-${target}-${subjectKind(subject)}-grant`);

/** A live grant's address names its subject as people do (a team's title, a user's e-mail). */
const subjectName = (g: LiveGrant) => {
  const name = (g as Partial<LiveGrantEntry>).name ?? null;
  return 'team' in g ? `team:${name ?? g.team}` : `member:${name ?? g.member}`;
};

/**
 * One object's grants: pair by subject (a team by its id, known from its title; a user by e-mail
 * or id), then create, update or revoke. A team the plan creates is granted after its creation and
 * membership; a team the plan deletes cannot be granted; the token's own user grant is never revoked.
 */
export function diffGrants(ctx: DiffContext, kind: string, h: GrantHolder): void {
  const drafts = kindDrafts<OpShape>(ctx, kind);
  const used = new Set<LiveGrant>();
  for (const d of h.desired) {
    const address = `${h.address}/access/${grantSubject(d)}`;
    const deps: (string | undefined)[] = [h.createKey];
    const paired = 'team' in d ? teamSubject(ctx, h, d, deps) : memberSubject(ctx, h, d);
    if (!paired) continue;
    const { subject, live } = paired;
    if (live) used.add(live);
    const base = { org: ctx.org, holder: h.ref, subject };
    if (!live)
      drafts.create({
        address,
        after: { role: d.role },
        deps,
        op: { type: opType(h.target, 'create', subject), ...base, role: d.role },
      });
    else if (live.role !== d.role)
      drafts.update({
        address,
        before: { role: live.role },
        after: { role: d.role },
        deps,
        op: { type: opType(h.target, 'update', subject), ...base, role: d.role },
      });
  }
  revokeUnlisted(ctx, drafts, h, used);
}

type Paired = { subject: GrantSubject; live: LiveGrant | undefined };

/** A team's grant: its subject (the team by title, after its creation and members: `deps`) and its live grant. */
function teamSubject(
  ctx: DiffContext,
  h: GrantHolder,
  d: Extract<DesiredGrant, { team: string }>,
  deps: (string | undefined)[],
): Paired | undefined {
  const team = ctx.teamRefs.get(d.team);
  if (!team) {
    problem(ctx, `${h.label}: no team titled "${d.team}" to grant access to`, 'unknown-reference');
    return undefined;
  }
  const teamAddr = `${ctx.org}/teams/${d.team}`;
  if (ctx.drafts.at(teamAddr).some((x) => x.action === 'delete' && x.kind === 'team')) {
    problem(
      ctx,
      `${h.label}: team "${d.team}" is deleted by this plan (not in teams); keep it or remove its grant`,
      'unknown-reference',
    );
    return undefined;
  }
  deps.push(team.createKey, teamMembersKey(ctx, teamAddr));
  const id = 'id' in team.ref ? team.ref.id : undefined;
  const live = id === undefined ? undefined : h.live.find((l) => 'team' in l && l.team === id);
  return { subject: { team: team.ref }, live };
}

/** A member's grant: its subject (the user by e-mail or id) and its live grant. */
function memberSubject(
  ctx: DiffContext,
  h: GrantHolder,
  d: Extract<DesiredGrant, { member: string }>,
): Paired | undefined {
  const userIds = ctx.userIds ?? new Map<string, string>();
  const live = h.live.find(
    (l) => 'member' in l && (l.member === d.member || (l as Partial<LiveGrantEntry>).name === d.member),
  );
  const id = live && 'member' in live ? live.member : userIds.get(d.member);
  if (id === undefined) {
    problem(ctx, `${h.label}: no member with e-mail ${d.member} to grant access to`, 'unknown-reference');
    return undefined;
  }
  return { subject: { user: id }, live };
}

/** The live grants the config does not list: revoked when pruned, except the token's own user's. */
function revokeUnlisted(ctx: DiffContext, drafts: KindDrafts<OpShape>, h: GrantHolder, used: Set<LiveGrant>) {
  for (const l of h.live) {
    if (used.has(l)) continue;
    const subject: GrantSubject = 'team' in l ? { team: liveRef(l.team) } : { user: l.member };
    const self = 'member' in l && ctx.self !== null && l.member === ctx.self;
    const unknownSelf = 'member' in l && ctx.self === null;
    const keep = self || unknownSelf;
    if (unknownSelf && ctx.prune)
      warn(ctx, `${h.label}: the grant of ${subjectName(l)} is kept: ${SELF_KEPT.unknown}`);
    drafts.prune(
      {
        address: `${h.address}/access/${subjectName(l)}`,
        before: { role: l.role },
        op: { type: opType(h.target, 'delete', subject), org: ctx.org, holder: h.ref, subject },
      },
      keep ? false : ctx.prune,
      self ? SELF_KEPT.self : unknownSelf ? SELF_KEPT.unknown : undefined,
    );
  }
}
