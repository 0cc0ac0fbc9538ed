import { describe, expect, it } from 'vitest';
import { kindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import { createdRef, liveRef } from '../diff/draft.js';
import type { OpShape } from '../model/change.js';
import type { DesiredGrant, LiveGrant } from '../model/grants.js';
import { diffContext } from '../../test/helpers/diff-context.js';
import { diffGrants } from './grants-diff.js';

/** A team as the team kinds leave it in the drafts before grants are diffed (they diff last). */
type Team = { title: string; created?: boolean; members?: boolean; deleted?: boolean };

const teamAddr = (title: string) => `org_t/teams/${title}`;

/** The drafts and references the team and team-members kinds make for `teams`. */
function withTeams(teams: readonly Team[]): DiffContext {
  const ctx = diffContext({ flavor: 'current' });
  const team = kindDrafts<OpShape>(ctx, 'team');
  const members = kindDrafts<OpShape>(ctx, 'team-members');
  for (const [i, t] of teams.entries()) {
    const address = teamAddr(t.title);
    if (t.deleted) {
      // A live team the plan deletes is still known by its title (as the live read gives it).
      team.prune({ address, before: { title: t.title }, op: { type: 'delete-team' }, id: `team_${i}` });
      ctx.teamRefs.set(t.title, { ref: liveRef(`team_${i}`) });
      continue;
    }
    const createKey = t.created
      ? team.create({ address, after: { title: t.title }, op: { type: 'create-team' } })
      : undefined;
    ctx.teamRefs.set(t.title, {
      ref: createKey ? createdRef(createKey, 'id') : liveRef(`team_${i}`),
      ...(createKey ? { createKey } : {}),
    });
    if (t.members)
      members.update({
        address: `${address}/members`,
        before: {},
        after: { ann: 'member' },
        deps: [createKey],
        op: { type: 'set-team-members' },
      });
  }
  return ctx;
}

/** Grant each team in `granted` on space `space`: the grants' deps, or the problems. */
function grantDeps(ctx: DiffContext, space: string, granted: readonly string[], live: LiveGrant[] = []) {
  const desired: DesiredGrant[] = granted.map((team) => ({ team, role: 'edit' }));
  const before = ctx.drafts.drafts.length;
  diffGrants(ctx, 'space-grant', {
    target: 'space',
    label: `space ${space}`,
    ref: liveRef(space),
    address: `org_t/spaces/${space}`,
    desired,
    live,
  });
  return ctx.drafts.drafts.slice(before).map((d) => [d.address, d.deps]);
}

describe('a team grant waits for its team’s creation and membership change, found by address', () => {
  it.each<{ name: string; teams: Team[]; grant: string; deps: string[] | 'problem' }>([
    { name: 'a live team, members as they are', teams: [{ title: 'A' }], grant: 'A', deps: [] },
    {
      name: 'a live team whose members change',
      teams: [{ title: 'A', members: true }],
      grant: 'A',
      deps: ['update:org_t/teams/A/members'],
    },
    {
      name: 'a team the plan creates, with members',
      teams: [{ title: 'New', created: true, members: true }],
      grant: 'New',
      deps: ['create:org_t/teams/New', 'update:org_t/teams/New/members'],
    },
    {
      name: 'another team’s membership change is not this team’s',
      teams: [{ title: 'B', members: true }, { title: 'A' }],
      grant: 'A',
      deps: [],
    },
    {
      // The address's prefix matched before: team "A" waited for team "A/B"'s members.
      name: 'a team whose title extends this one’s with a slash is another team',
      teams: [{ title: 'A/B', members: true }, { title: 'A' }],
      grant: 'A',
      deps: [],
    },
    {
      name: 'a team the plan deletes',
      teams: [{ title: 'Gone', deleted: true }],
      grant: 'Gone',
      deps: 'problem',
    },
  ])('$name', ({ teams, grant, deps }) => {
    const ctx = withTeams(teams);
    const got = grantDeps(ctx, 'space_1', [grant]);
    if (deps === 'problem') {
      expect(got).toEqual([]);
      expect(ctx.problems.map((p) => [p.code, p.message])).toEqual([
        [
          'unknown-reference',
          `space space_1: team "${grant}" is deleted by this plan (not in teams); keep it or remove its grant`,
        ],
      ]);
    } else {
      expect(ctx.problems).toEqual([]);
      expect(got).toEqual([[`org_t/spaces/space_1/access/team:${grant}`, deps]]);
    }
  });

  it('many teams granted on many spaces: each grant’s deps are its own team’s', () => {
    const teams: Team[] = Array.from({ length: 300 }, (_, i) => ({
      title: `T${i}`,
      created: i % 3 === 0,
      members: i % 2 === 0,
      deleted: i % 7 === 6,
    }));
    const ctx = withTeams(teams);
    const kept = teams.filter((t) => !t.deleted);
    const expected = kept.map((t) => [
      ...(t.created ? [`create:${teamAddr(t.title)}`] : []),
      ...(t.members ? [`update:${teamAddr(t.title)}/members`] : []),
    ]);
    for (let s = 0; s < 20; s += 1) {
      const got = grantDeps(
        ctx,
        `space_${s}`,
        teams.map((t) => t.title),
      );
      expect(got.map(([address]) => address)).toEqual(
        kept.map((t) => `org_t/spaces/space_${s}/access/team:${t.title}`),
      );
      expect(got.map(([, deps]) => deps)).toEqual(expected);
    }
    // Each deleted team's grant, on each space, is a problem: the team is deleted by this plan.
    expect(ctx.problems).toHaveLength(20 * (teams.length - kept.length));
    for (const p of ctx.problems) expect(p.message).toMatch(/: team "T\d+" is deleted by this plan/);
  });
});
