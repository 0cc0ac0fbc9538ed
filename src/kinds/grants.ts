import { z } from 'zod';
import { createdRef, liveRef } from '../diff/draft.js';
import type { Ref } from '../model/change.js';
import { memberRoles } from '../model/kinds.js';
import {
  GRANTS_KEY,
  type DesiredGrant,
  type GrantRole,
  type GrantTarget,
  type LiveGrant,
} from '../model/grants.js';
import type { ApiCall, ApiList, EntryReference, OpDef, OpDefs, Resolver } from './types.js';

/**
 * Grants (issue 29, decision 0034): what the three grant kinds share (`space-grant`,
 * `collection-grant`, `site-grant`): the `access:` list of a space's, collection's or site's
 * config entry, its normalization to the shared shapes of src/model/grants.ts, the live reads (one
 * list of team grants and one of user grants per object), the API calls and, in grants-diff.ts, the
 * diff. The kinds differ only in the object that holds the grants and its routes.
 */

export type { DesiredGrant, LiveGrant } from '../model/grants.js';

/** One entry of an `access:` list in a config file. */
const GrantEntry = z
  .strictObject({
    team: z
      .string()
      .min(1)
      .optional()
      .describe('Title of a team (declared in teams, or live): the grant is the team’s. Identity.'),
    member: z
      .string()
      .min(1)
      .optional()
      .describe('E-mail (or user id) of a member of the organization: the grant is the user’s. Identity.'),
    role: z
      .enum(memberRoles)
      .describe('The role the grant gives on the object: admin, create, review, edit, comment or read.'),
  })
  .superRefine((e, ctx) => {
    if ((e.team === undefined) === (e.member === undefined))
      ctx.addIssue({
        code: 'custom',
        message:
          e.team === undefined
            ? 'a grant names a team (team: <title>) or a member (member: <e-mail>)'
            : 'a grant names one subject: team or member, not both',
      });
  });
export type GrantEntry = { team?: string; member?: string; role: GrantRole };

/** A desired grant's subject, as its identity (`team:Platform`, `user:ann@acme.com`). */
const subjectOf = (e: GrantEntry): string =>
  e.team !== undefined ? `team:${e.team}` : `member:${(e.member ?? '').toLowerCase()}`;

/** A config entry's subject (`team:Platform`, `member:ann@acme.com`), as grant addresses name it. */
export const grantEntrySubject = (entry: Record<string, unknown>): string | undefined =>
  typeof entry['team'] === 'string' || typeof entry['member'] === 'string'
    ? subjectOf(entry as GrantEntry)
    : undefined;

/** An `access:` list: each subject once. */
export const AccessConfig: z.ZodType<GrantEntry[]> = z
  .array(GrantEntry)
  .max(1000)
  .superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    entries.forEach((e, i) => {
      const subject = subjectOf(e);
      const first = seen.get(subject);
      if (first === undefined) seen.set(subject, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, e.team !== undefined ? 'team' : 'member'],
          message: `${subject.replace(':', ' ')} is granted twice (first at entry ${first + 1})`,
        });
    });
  });
export type AccessConfig = GrantEntry[];

/** What `access:` means, for each holder's reference text. */
export const ACCESS_DESCRIBE =
  'Grants (today’s API): the teams and members that get a role on this object. Omitted: grants are not read or changed; []: no grants (the live ones are revoked when pruning).';

/** The config's entries as desired grants: a team by title, a user by e-mail in lower case. */
export const normalizeAccess = (entries: AccessConfig): DesiredGrant[] =>
  entries.map((e): DesiredGrant =>
    e.team !== undefined
      ? { team: e.team, role: e.role }
      : { member: (e.member ?? '').toLowerCase(), role: e.role },
  );

/** What a grant names (resolved when planning): its team by title, its user by e-mail. */
export const grantReferences = (grants: DesiredGrant[], holder: string): EntryReference[] =>
  grants.map((g, i) =>
    'team' in g
      ? { target: 'team', id: g.team, path: [i, 'team'], holder }
      : { target: 'member', id: g.member, path: [i, 'member'], holder, read: true },
  );

/** A live grant, with the name of its subject as the API answers it (a team's title, a user's e-mail). */
export type LiveGrantEntry = LiveGrant & { name: string | null };

const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
/** `GET …/permissions/teams`: a team and its role (null: guest, on a site). */
const TeamAnswer = z.looseObject({
  team: z.looseObject({ id: z.string(), title: nullish(z.string()) }),
  permission: nullish(z.enum(memberRoles)),
});
/** `GET …/permissions/users`: a user and its role. */
const UserAnswer = z.looseObject({
  user: z.looseObject({ id: z.string(), email: nullish(z.string()) }),
  permission: nullish(z.enum(memberRoles)),
});
type TeamAnswer = { team: { id: string; title?: string | null }; permission?: GrantRole | null };
type UserAnswer = { user: { id: string; email?: string | null }; permission?: GrantRole | null };

/**
 * The routes of an object's grants, written out by its kind (`/spaces/{holder}/permissions`…):
 * `{holder}` names the object, `{org}` the organization where the route has it (a site's).
 */
export type GrantRoutes = { invite: string; teams: string; team: string; users: string; user: string };

/** The route parameters of an object's grants (a site's routes name its organization too). */
const holderParams = (routes: GrantRoutes, org: string, holder: string): Record<string, string> =>
  routes.invite.includes('{org}') ? { org, holder } : { holder };

/** The two lists that hold one object's grants: its teams' and its users'. */
export function grantLists(routes: GrantRoutes, org: string, holder: string): [ApiList, ApiList] {
  const params = holderParams(routes, org, holder);
  return [
    { route: routes.teams, params, item: TeamAnswer },
    { route: routes.users, params, item: UserAnswer },
  ];
}

/**
 * One object's live grants, from the answers of its two lists. A guest override on a site (no
 * role) is not a grant docsync manages: left out.
 */
export function liveGrants(answers: unknown[][]): LiveGrantEntry[] {
  const out: LiveGrantEntry[] = [];
  for (const item of answers.flat() as (TeamAnswer | UserAnswer)[]) {
    if (!item.permission) continue;
    if ('team' in item)
      out.push({ team: item.team.id, role: item.permission, name: item.team.title ?? null });
    else
      out.push({ member: item.user.id, role: item.permission, name: item.user.email?.toLowerCase() ?? null });
  }
  return out;
}

/** The grants as export writes them: a team by title, a user by e-mail (by id when it has none). */
export const exportAccess = (live: readonly LiveGrant[]): AccessConfig =>
  live.map((g) => {
    const name = (g as Partial<LiveGrantEntry>).name ?? null;
    return 'team' in g ? { team: name ?? g.team, role: g.role } : { member: name ?? g.member, role: g.role };
  });

/** How a grant's subject is named in an operation: a team by reference (it may be created), a user by id. */
export type GrantSubject = { team: Ref } | { user: string };

/** A target's grant operations (`create-space-grant`…): data, as the plan holds them. */
export type GrantOp<T extends GrantTarget> =
  | { type: `create-${T}-grant`; org: string; holder: Ref; subject: GrantSubject; role: GrantRole }
  | {
      type: `update-${T}-${GrantSubjectKind}-grant`;
      org: string;
      holder: Ref;
      subject: GrantSubject;
      role: GrantRole;
    }
  | { type: `delete-${T}-${GrantSubjectKind}-grant`; org: string; holder: Ref; subject: GrantSubject };

/** A grant's subject in its change and delete operations' types (their routes differ). */
export type GrantSubjectKind = 'team' | 'member';
export const subjectKind = (s: GrantSubject): GrantSubjectKind => ('team' in s ? 'team' : 'member');

/** Any target's grant operation, as the calls below read it. */
type AnyGrantOp = { org: string; holder: Ref; subject: GrantSubject; role?: GrantRole };

/** The API calls of a target's grant operations (`target` names them: `create-space-grant`…). */
export function grantOps<T extends GrantTarget>(target: T, routes: GrantRoutes): OpDefs<GrantOp<T>> {
  /** One grant's route: the operation's type says the subject's kind (a team's, a member's). */
  const one = (kind: GrantSubjectKind) => (op: AnyGrantOp, r: Resolver) => {
    const params = holderParams(routes, op.org, r.ref(op.holder));
    return kind === 'team'
      ? { route: routes.team, params: { ...params, team: r.ref((op.subject as { team: Ref }).team) } }
      : { route: routes.user, params: { ...params, user: (op.subject as { user: string }).user } };
  };
  /** The list the grant's subject is in, and whether an item is that grant with that role. */
  const listOf = (op: AnyGrantOp, r: Resolver): ApiList => {
    const [teams, users] = grantLists(routes, op.org, r.ref(op.holder));
    return 'team' in op.subject ? teams : users;
  };
  const isGrant = (item: TeamAnswer | UserAnswer, op: AnyGrantOp, r: Resolver): boolean =>
    item.permission === op.role &&
    ('team' in op.subject
      ? 'team' in item && item.team.id === r.ref(op.subject.team)
      : 'user' in item && item.user.id === op.subject.user);
  const defs: Record<string, OpDef<AnyGrantOp>> = {
    // Setting a role is idempotent; after an ambiguous failure the list says whether it was set.
    [`create-${target}-grant`]: {
      call: (op, r) => ({
        method: 'POST',
        route: routes.invite,
        params: holderParams(routes, op.org, r.ref(op.holder)),
        body:
          'team' in op.subject
            ? { role: op.role, teams: [r.ref(op.subject.team)] }
            : { role: op.role, users: [op.subject.user] },
        expect: [204],
      }),
      adopt: {
        list: listOf,
        find: (item: TeamAnswer | UserAnswer, op, r) => isGrant(item, op, r),
        output: () => ({}),
      },
    },
    ...Object.fromEntries(
      (['team', 'member'] as const).flatMap((kind) => [
        [
          `update-${target}-${kind}-grant`,
          {
            call: (op: AnyGrantOp, r: Resolver): ApiCall => ({
              method: 'PATCH',
              ...one(kind)(op, r),
              body: { role: op.role },
              expect: [204],
            }),
          },
        ],
        [
          `delete-${target}-${kind}-grant`,
          {
            call: (op: AnyGrantOp, r: Resolver): ApiCall => ({
              method: 'DELETE',
              ...one(kind)(op, r),
              expect: [204, 205],
            }),
          },
        ],
      ]),
    ),
  };
  return defs as unknown as OpDefs<GrantOp<T>>;
}

/** The reference of an object that may be created by the plan (its creation's key), or is live. */
export const holderRef = (liveId: string | undefined, createKey: string | undefined): Ref =>
  liveId !== undefined ? liveRef(liveId) : createdRef(createKey ?? '');

/** Whether a config manages any grants (`access:` of a space, collection or site): the token's user is read then. */
export const holdsGrants = (org: {
  spaces?: readonly object[];
  collections?: readonly object[];
  sites?: readonly object[];
}): boolean =>
  [org.spaces, org.collections, org.sites].some((list) =>
    list?.some((e) => GRANTS_KEY in e && (e as Record<string, unknown>)[GRANTS_KEY] !== undefined),
  );
