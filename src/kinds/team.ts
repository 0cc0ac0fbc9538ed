import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, type DiffContext } from '../diff/context.js';
import { createdRef, liveRef } from '../diff/draft.js';
import { pairedAsRead, pairsByNameOnly } from '../diff/paired-as-read.js';
import type { Ref } from '../model/change.js';
import { emptyList, holeyCopy } from '../model/holey.js';
import { itemsOf, type ArrivingList, type Wait } from '../model/arriving.js';
import { defined, duplicatesOf, pin, previously, shortTitlePinned } from './fields.js';
import {
  diffTeamMembers,
  exportMember,
  liveMember,
  MemberAnswer,
  memberNames,
  membersAsLive,
  MemberEntry,
  memberOf,
  MEMBERS,
  teamReferences,
  type DesiredTeamMember,
  type LiveTeamMember,
} from './team-members.js';
import { deleteCall, idOutput, listBelow } from './types.js';
import { drained, type ListKind } from './shapes.js';
import { pick, shuffle, type KindExamples } from './examples.js';

/** Teams of an organization, by title (or pinned id), with their membership when listed. */

export type TeamOp =
  | { type: 'create-team'; org: string; title: string }
  | { type: 'update-team'; org: string; team: Ref; title: string }
  | { type: 'delete-team'; org: string; team: Ref };

const Config = z
  .strictObject({
    title: z
      .string()
      .max(64)
      .describe(
        'Identity of the team (unless id is pinned), 1 to 64 characters; empty only with id pinned, for a team that already has no title.',
      ),
    id: pin('title'),
    previously: previously('title'),
    members: z.array(MemberEntry).optional().describe('The full membership when present.'),
  })
  .superRefine(shortTitlePinned(1, 'team'));
type Config = z.infer<typeof Config>;

export type DesiredTeam = {
  title: string;
  id?: string;
  previously?: string[];
  members?: DesiredTeamMember[];
};
export type LiveTeam = {
  id: string;
  title: string;
  /** Undefined when memberships were not read. */
  members?: LiveTeamMember[];
};

const Answer = z.looseObject({ id: z.string(), title: z.string() });
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/teams';
const ROUTE = '/orgs/{org}/teams/{team}';
const address = (org: string, title: string) => `${org}/teams/${title}`;
const list = (org: string) => ({ route: LIST, params: { org }, item: Answer });
/** What a team with members names: members (the live read's scope, `referenceTargets`). */
const MEMBER_TARGET = [{ target: 'member' }] as const;
/**
 * What a team without members names: one shared empty array of the elements kind of the others'
 * (`emptyList`). A `[]` here holds small integers: the proof's `withoutReferences`, which reads a
 * site's targets and then a team's, was deoptimized at the first team (wrong map, issue 33).
 */
const NO_TARGETS: readonly { target: string }[] = emptyList();

/** Teams diffed between two yields of `diffSteps` (a few hundred µs). */
const TEAMS_PER_STEP = 100;

/**
 * The teams' diff, some teams at a time (its `diff` runs them at once): it reads nothing other
 * kinds' diffs write. A team's whole membership difference is one change; other kinds name teams
 * by title (`ctx.teamRefs`).
 * The loop over the teams stays in `diffPairs`, a plain function V8 optimizes while it runs.
 */
function* diffSteps(
  ctx: DiffContext,
  desired: DesiredTeam[],
  live: LiveTeam[],
  arriving?: ArrivingList<LiveTeam>,
): Generator<void | Wait, void, undefined> {
  const places = arriving && pairsByNameOnly(desired, titleOf);
  if (arriving && places) {
    // A page at a time as the pages come (the teams' list is the longest chain of pages).
    const leftover = yield* pairedAsRead(
      ctx,
      'team',
      desired,
      arriving,
      titleOf,
      diffAll,
      TEAMS_PER_STEP,
      places,
    );
    countLive(ctx, 'team', arriving.paged.length);
    pruneTeams(ctx, leftover);
    return;
  }
  const { pairs, leftover } = pairTeams(ctx, desired, arriving ? yield* itemsOf(arriving) : live);
  yield;
  for (let i = 0; i < pairs.length; i += TEAMS_PER_STEP) {
    diffPairs(ctx, pairs, i, Math.min(pairs.length, i + TEAMS_PER_STEP));
    yield;
  }
  pruneTeams(ctx, leftover);
}

function pairTeams(ctx: DiffContext, desired: DesiredTeam[], live: readonly LiveTeam[]) {
  countLive(ctx, 'team', live.length);
  return pairByIdentity(ctx, 'team', desired, live, titleOf);
}

const titleOf = (x: { title: string }) => x.title;

/** Every pair given. */
const diffAll = (ctx: DiffContext, pairs: readonly [DesiredTeam, LiveTeam | undefined][]) =>
  diffPairs(ctx, pairs, 0, pairs.length);

/**
 * The pairs from `from` to before `to`. It writes drafts and `teamRefs` only, as `pairedAsRead`
 * needs (`PairsDiff`): a warning, problem or live count written here would come out in the pages'
 * order rather than the config's when the teams are diffed as they are read.
 */
function diffPairs(
  ctx: DiffContext,
  pairs: readonly [DesiredTeam, LiveTeam | undefined][],
  from: number,
  to: number,
): void {
  const { org } = ctx;
  const drafts = kindDrafts<TeamOp>(ctx, 'team');
  // Indexed, without destructuring: one call runs this over every team, mostly before it is
  // optimized, where each step of a for…of and each destructured pair is an iterator (issue 33).
  for (let i = from; i < to; i += 1) {
    const d = pairs[i]![0];
    const l = pairs[i]![1];
    // A team unchanged, without members or with its live ones (most) needs no address: made only
    // for a draft (the full difference, `diffTeamMembers`, finds none where `membersAsLive`).
    if (l && l.title === d.title && (!d.members || membersAsLive(d.members, l.members ?? []))) {
      ctx.teamRefs.set(d.title, { ref: liveRef(l.id) });
      continue;
    }
    const addr = address(org, d.title);
    let ref: Ref;
    let createKey: string | undefined;
    ctx.teamRefs.set(
      d.title,
      l ? { ref: liveRef(l.id) } : { ref: createdRef(`create:${addr}`), createKey: `create:${addr}` },
    );
    if (!l) {
      createKey = drafts.create({
        address: addr,
        after: { title: d.title },
        op: { type: 'create-team', org, title: d.title },
      });
      ref = createdRef(createKey);
    } else {
      ref = liveRef(l.id);
      if (l.title !== d.title)
        drafts.update({
          address: addr,
          before: { title: l.title },
          after: { title: d.title },
          op: { type: 'update-team', org, team: ref, title: d.title },
        });
    }
    if (d.members) diffTeamMembers(ctx, addr, ref, createKey, d.members, l?.members ?? []);
  }
}

/** The live teams the config does not describe. */
function pruneTeams(ctx: DiffContext, leftover: readonly LiveTeam[]): void {
  const { org } = ctx;
  const drafts = kindDrafts<TeamOp>(ctx, 'team');
  for (const l of leftover) {
    const addr = address(org, l.title);
    drafts.prune({
      address: addr,
      id: l.id,
      before: { title: l.title },
      op: { type: 'delete-team', org, team: liveRef(l.id) },
    });
  }
}

/**
 * Which live teams' memberships the config lists: by pinned id, else by title or an earlier
 * title. Built once per read (`prepare`), then asked once per live team.
 */
function membersWanted(desired: DesiredTeam[]): { ids: Set<string>; titles: Set<string> } {
  const want = { ids: new Set<string>(), titles: new Set<string>() };
  for (const d of desired) {
    if (d.members === undefined) continue;
    if (d.id) want.ids.add(d.id);
    else {
      // Added one by one: an array spread per team was 3,000 arrays and iterators a read.
      want.titles.add(d.title);
      for (const title of d.previously ?? []) want.titles.add(title);
    }
  }
  return want;
}

export const teamKind: ListKind<'teams', Config, DesiredTeam, LiveTeam, TeamOp, 'team'> = {
  kind: 'team',
  key: 'teams',
  config: Config,
  configBefore: 'end',
  docs: {
    'teams[]': {
      title: 'teams',
      identity: '`title`',
      example: [
        {
          title: 'Docs Writers',
          members: [{ user: 'alice@example.com', role: 'owner' }, 'bob@example.com'],
        },
      ],
    },
    'teams[].members[]': {
      title: 'team members',
      identity: '`user`',
      notes: ['A plain string is shorthand for `{ user: <string> }` with role `member`.'],
    },
  },
  unique: { what: 'team', key: 'title', pinned: true },
  check: (t, { unique }) => {
    const members = unique('team member');
    t.members?.forEach((m, j) => {
      const user = typeof m === 'string' ? m : m.user;
      members(user.toLowerCase(), ['members', j], user);
    });
  },
  normalize: (t) =>
    defined({ title: t.title, id: t.id, previously: t.previously, members: t.members?.map(memberOf) }),
  references: teamReferences,
  // The live read's scope needs only the targets: not a located reference per member (12,000 on a
  // request-heavy organization, each with its holder's text), built again for the proof.
  referenceTargets: (team: DesiredTeam) => ((team.members?.length ?? 0) > 0 ? MEMBER_TARGET : NO_TARGETS),
  liveReferences: (team: LiveTeam) => [{ target: 'member', names: memberNames(team) }],
  lookup: {
    target: 'team',
    noun: 'team',
    quoted: true,
    names: (t: LiveTeam) => [t.title],
    created: (t: DesiredTeam) => [t.title],
    readWhenNamed: true,
  },
  reads: [
    {
      list,
      live: (t: Answer): LiveTeam => ({ id: t.id, title: t.title }),
      // Memberships of the teams whose entry lists members (every team for export).
      children: {
        prepare: membersWanted,
        reads: [
          listBelow({
            wanted: (team: LiveTeam, want: ReturnType<typeof membersWanted>) =>
              want.ids.has(team.id) || want.titles.has(team.title),
            // Each member made live as its page arrives (decision 42).
            list: (org: string, team: LiveTeam) => ({
              route: MEMBERS,
              params: { org, team: team.id },
              item: MemberAnswer,
              live: liveMember,
            }),
            // Copied holey: the read's arrays are packed or holey as it is optimized or not (model/holey.ts).
            // Each key named, in `live`'s order: a spread with `members` after it runs in V8's
            // runtime for each team (model/with-field.ts).
            attach: (team: LiveTeam, members: ReturnType<typeof liveMember>[]): LiveTeam => ({
              id: team.id,
              title: team.title,
              members: holeyCopy(members),
            }),
          }),
        ],
      },
    },
  ],
  diff: drained(diffSteps),
  diffSteps,
  diffPhase: 'before-settings',
  export: {
    file: 'teams.yaml',
    header: 'Teams',
    entries: (live) => {
      const teams = live ?? [];
      const dup = duplicatesOf(teams.map((t) => t.title));
      return teams.map((t) => ({
        title: t.title,
        ...(dup.has(t.title) || t.title === '' ? { id: t.id } : {}),
        members: (t.members ?? []).map(exportMember),
      }));
    },
  },
  ops: {
    'create-team': {
      call: (op) => ({
        method: 'PUT',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title },
        expect: [200, 201],
        answer: Answer,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => list(op.org),
        find: (t: Answer, op) => t.title === op.title,
        output: idOutput,
      },
    },
    'update-team': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, team: r.ref(op.team) },
        body: { title: op.title },
        expect: [200],
        answer: Answer,
      }),
    },
    'delete-team': {
      call: (op, r, caps) => deleteCall(ROUTE, { org: op.org, team: r.ref(op.team) }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { title: 'Writers', members: ['a@example.com'] },
        seed: { title: 'Writers', members: ['user_a'] },
        changed: { title: 'Writers', members: ['a@example.com', { user: 'user_b', role: 'owner' }] },
      },
      {
        config: { title: 'Reviewers' },
        seed: { title: 'Reviewers', members: ['user_c'] },
        changed: { title: 'Editors', previously: ['Reviewers'] },
      },
    ],
    // Teams of one to three, each with members or not, over the test organization's users.
    random: (r) => ({
      title: pick(r, ['Writers', 'Ops', 'Support']),
      ...(r() < 0.7
        ? {
            members: shuffle(r, ['user_a', 'b@example.com', 'user_c', 'd@example.com'])
              .slice(0, Math.floor(r() * 4))
              .map((user) => ({ user, role: pick(r, ['owner', 'member'] as const) })),
          }
        : {}),
    }),
    randomSeed: (r) => ({
      title: pick(r, ['Writers', 'Old team']),
      members: shuffle(r, ['user_a', 'user_b', 'user_c']).slice(0, Math.floor(r() * 3)),
    }),
  } satisfies KindExamples<Config>,
};
