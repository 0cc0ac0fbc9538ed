import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../api/capabilities.js';
import { PolicySchema } from '../config/schema.js';
import { diffOrganization } from '../reconcile/diff.js';
import type { Policy } from '../model/index.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/index.js';
import { buildPlan } from '../plan/build.js';
import { renderText } from '../plan/render-text.js';
import { MEMBER_KEPT, MEMBER_NOTES, memberKind, type LiveMember } from './member.js';

/**
 * Members (issue 27 finding 4): removing people rides only on `policy.pruneMembers`, never on
 * `policy.prune`; the token's own user and the last admins stay. The reference text says the same,
 * and this file holds the two together.
 */
const ORG = 'org_m';
const live: LiveMember[] = [
  { userId: 'user_me', email: 'me@example.com', role: 'admin' },
  { userId: 'user_ann', email: 'ann@example.com', role: 'admin' },
  { userId: 'user_dave', email: 'dave@example.com', role: 'edit' },
];

function planFor(policy: Policy, members: DesiredOrganization['members'], liveMembers = live) {
  const desired: DesiredOrganization = { id: ORG, policy, members };
  const liveOrg: LiveOrganization = { id: ORG, members: liveMembers, self: 'user_me' };
  return buildPlan([diffOrganization(desired, liveOrg, { capabilities: capabilitiesOf('seed') })]);
}

const removed = (plan: ReturnType<typeof planFor>) =>
  plan.changes.filter((c) => c.action === 'delete').map((c) => c.address);

describe('members', () => {
  const keepAnn = [{ user: 'ann@example.com', role: 'admin' as const }];

  it('policy.prune: true never removes a member, and the plan says why in words that are true', () => {
    const plan = planFor({ prune: true, maxDeletes: 10 }, keepAnn);
    expect(removed(plan)).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { kind: 'member', address: `${ORG}/members/me@example.com`, reason: MEMBER_KEPT.self },
      { kind: 'member', address: `${ORG}/members/dave@example.com`, reason: MEMBER_KEPT.noPruneMembers },
    ]);
    const text = renderText(plan);
    expect(text).not.toContain('because policy.prune is false');
    expect(text).toContain(`left alone because ${MEMBER_KEPT.noPruneMembers}`);
    expect(text).toContain(`left alone because ${MEMBER_KEPT.self}`);
  });

  it('policy.pruneMembers: true removes the members the config omits, never the token user', () => {
    const plan = planFor({ prune: false, maxDeletes: 10, pruneMembers: true }, keepAnn);
    expect(removed(plan)).toEqual([`${ORG}/members/dave@example.com`]);
    expect(plan.unmanaged.map((u) => u.address)).toEqual([`${ORG}/members/me@example.com`]);
    expect(plan.refusals).toEqual([]);
  });

  it('a plan that leaves fewer admins than policy.minAdmins is refused, as data in the plan', () => {
    // Demote ann and remove her… the token's user stays admin: 1 admin left, the floor is 2.
    const plan = planFor({ prune: false, maxDeletes: 10, pruneMembers: true, minAdmins: 2 }, [
      { user: 'ann@example.com', role: 'read' },
      { user: 'dave@example.com', role: 'edit' },
    ]);
    expect(plan.refusals.map((r) => [r.guard, r.override])).toEqual([['minAdmins', null]]);
    expect(renderText(plan)).toContain(
      'This plan will be refused: org_m: the plan leaves 1 admin(s), fewer than policy.minAdmins (2)',
    );
    // The default floor is 1: demoting the only other admin keeps the token's user.
    const demote = planFor({ prune: false, maxDeletes: 10 }, [{ user: 'ann@example.com', role: 'read' }]);
    expect(demote.refusals).toEqual([]);
    // Without the token's user as admin, demoting the last admin is refused by default.
    const last = planFor(
      { prune: false, maxDeletes: 10 },
      [{ user: 'ann@example.com', role: 'read' }],
      [{ userId: 'user_ann', email: 'ann@example.com', role: 'admin' }],
    );
    expect(last.refusals.map((r) => r.code)).toEqual(['too-few-admins']);
  });

  it('the reference text says what the code does (docs/configuration.md is generated from it)', () => {
    const notes = memberKind.docs['members[]']!.notes!.join(' ');
    expect(notes).toBe(MEMBER_NOTES.join(' '));
    expect(notes).toContain('removed only with `policy.pruneMembers: true`');
    expect(notes).toContain('even with `policy.prune: true`');
    expect(notes).not.toMatch(/never invites or removes/);
    expect(PolicySchema.shape.pruneMembers.description).toMatch(/`prune` never removes members/);
    expect(PolicySchema.shape.minAdmins.description).toMatch(/Default 1\./);
    const reference = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const note of MEMBER_NOTES) expect(reference).toContain(note);
    expect(reference).toContain('`pruneMembers`');
    expect(reference).not.toContain('never invites or removes members');
  });
});
