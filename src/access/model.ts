import type { DesiredGrant, LiveGrant } from '../model/grants.js';
import type { Renamable } from '../model/desired.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/state.js';
import type { AccessModel, AccessObject, Grant, Role } from './effective.js';
import { desiredGrantsOf, liveGrantsOf, type WithGrants } from './grants-of.js';

/**
 * The effective-access model of an organization (src/access/effective.ts), built from its live
 * state (now) and from its desired state resolved against the live one (after the plan). Pure.
 *
 * After the plan: members by e-mail or id (a listed e-mail that is not a member is the invited
 * member, with its role), teams, collections and sites by pinned id, title or earlier title (one
 * the plan creates has a placeholder id and, for a team, its desired members), spaces by id. What
 * the config does not describe keeps its live value; live teams, collections and sites the config
 * omits are gone only under `policy.prune`, members only under `policy.pruneMembers`. An object
 * whose `access` list the config gives has those grants, plus the live grants it omits unless
 * `policy.prune` (the token's own grant is never removed).
 */

/** Ids for what the plan creates: never an id the API gives out (they hold a colon). */
const NEW = { team: 'new:team:', collection: 'new:collection:', site: 'new:site:', member: 'invited:' };

/** The model now and after the plan, over the same objects (see the module's comment). */
export function accessModels(
  desired: DesiredOrganization,
  live: LiveOrganization,
): { before: AccessModel; after: AccessModel } {
  const before = liveAccessModel(live, desired);
  return { before, after: plannedAccessModel(desired, live, before) };
}

/**
 * `accessModels` with only the teams a grant of either model names: the only teams effective
 * access reads (a grant's members, a granted team's title), so `effectiveAccess` and `diffAccess`
 * give the same answers. When no grant names a team, no team is paired with the live ones or
 * mapped: a plan of 15,000 teams and no team grant pairs none (issue 33); one team grant pairs
 * them all, then keeps the granted ones.
 */
export function grantedAccessModels(
  desired: DesiredOrganization,
  live: LiveOrganization,
): { before: AccessModel; after: AccessModel } {
  const now = liveParts(live, desired);
  let all: AccessModel['teams'] | undefined;
  const nowTeams = () => (all ??= liveTeams(live));
  const { teams, ...after } = plannedParts(desired, live, now, nowTeams);
  const granted = new Set<string>();
  for (const grants of [now.grants, after.grants])
    for (const g of grants) if ('team' in g.subject) granted.add(g.subject.team);
  const only = (list: () => AccessModel['teams']) =>
    granted.size === 0 ? [] : list().filter((t) => granted.has(t.id));
  return {
    before: { members: now.members, teams: only(nowTeams), objects: now.objects, grants: now.grants },
    after: { ...after, teams: only(teams) },
  };
}

/**
 * The model of the live state. With `desired`, a space the config names that the live state does
 * not hold (its fields were not read) is there too, with what is known of it: its id.
 */
export function liveAccessModel(live: LiveOrganization, desired?: DesiredOrganization): AccessModel {
  const { members, objects, grants } = liveParts(live, desired);
  return { members, teams: liveTeams(live), objects, grants };
}

/** The live model but its teams (15,000 of them may be read for a plan that needs none). */
function liveParts(live: LiveOrganization, desired?: DesiredOrganization): Omit<AccessModel, 'teams'> {
  const objects: AccessObject[] = [
    ...(live.collections ?? []).map((c): AccessObject => ({
      noun: 'collection',
      id: c.id,
      title: c.title,
      parent: c.parent,
      defaultLevel: c.defaultLevel,
    })),
    ...liveSpaces(live, desired).map((s): AccessObject => ({
      noun: 'space',
      id: s.id,
      title: s.title ?? s.id,
      parent: s.parent ?? null,
      // A space whose fields were not read: `inherit`, the API's default.
      defaultLevel: s.defaultLevel === undefined ? 'inherit' : s.defaultLevel,
    })),
    ...(live.sites ?? []).map((s): AccessObject => ({
      noun: 'site',
      id: s.id,
      title: s.title,
      defaultLevel: null,
    })),
  ];
  return {
    members: (live.members ?? []).map((m) => ({ id: m.userId, email: m.email ?? m.userId, role: m.role })),
    objects,
    grants: liveObjects(live).flatMap(({ id, entry }) =>
      (liveGrantsOf(entry) ?? []).map((g) => liveGrant(id, g)),
    ),
  };
}

/** The live teams, their members by id. */
function liveTeams(live: LiveOrganization): AccessModel['teams'] {
  return (live.teams ?? []).map((t) => ({
    id: t.id,
    title: t.title,
    members: (t.members ?? []).map((m) => m.userId),
  }));
}

type LiveSpace = NonNullable<LiveOrganization['spaces']>[number];

/** The live spaces, and a stub for each space the config names that the live state does not hold. */
function liveSpaces(live: LiveOrganization, desired: DesiredOrganization | undefined): LiveSpace[] {
  const spaces = live.spaces ?? [];
  const known = new Set(spaces.map((s) => s.id));
  const stubs = (desired?.spaces ?? []).filter((s) => !known.has(s.id)).map((s): LiveSpace => ({ id: s.id }));
  return [...spaces, ...stubs];
}

/** Every live object that may hold grants, with its entry. */
function liveObjects(live: LiveOrganization): { id: string; entry: WithGrants<LiveGrant> }[] {
  return [...(live.collections ?? []), ...(live.spaces ?? []), ...(live.sites ?? [])].map((entry) => ({
    id: entry.id,
    entry,
  }));
}

function liveGrant(object: string, g: LiveGrant): Grant {
  return {
    object,
    subject: 'team' in g ? { team: g.team } : { user: g.member },
    role: g.role as Role,
  };
}

/** Desired entries paired with live ones: pinned id, then title, then an earlier title. */
function pair<D extends Renamable & { title: string }, L extends { id: string; title: string }>(
  desired: readonly D[],
  live: readonly L[],
): { pairs: [D, L | undefined][]; leftover: L[] } {
  // Plain loops and one array of partners by desired index: 15,000 teams are paired (issue 33).
  const used = new Set<L>();
  const byId = new Map<string, L>();
  const byTitle = new Map<string, L[]>();
  for (const l of live) {
    byId.set(l.id, l);
    const same = byTitle.get(l.title);
    if (same) same.push(l);
    else byTitle.set(l.title, [l]);
  }
  /** The first live object of these titles not yet paired, taken. */
  const takeFree = (titles: readonly string[]): L | undefined => {
    for (const t of titles)
      for (const l of byTitle.get(t) ?? [])
        if (!used.has(l)) {
          used.add(l);
          return l;
        }
    return undefined;
  };
  const found = new Array<L | undefined>(desired.length);
  desired.forEach((d, i) => {
    if (!d.id) return;
    const l = byId.get(d.id);
    if (l) used.add(l);
    found[i] = l;
  });
  desired.forEach((d, i) => {
    if (!d.id) found[i] = takeFree([d.title]);
  });
  desired.forEach((d, i) => {
    if (!d.id && !found[i]) found[i] = takeFree(d.previously ?? []);
  });
  return {
    pairs: desired.map((d, i): [D, L | undefined] => [d, found[i]]),
    leftover: live.filter((l) => !used.has(l)),
  };
}

/** The model after the plan: the desired state resolved against the live one (module comment). */
function plannedAccessModel(
  desired: DesiredOrganization,
  live: LiveOrganization,
  /** The live model (`liveAccessModel(live, desired)`): never changed. */
  now: AccessModel,
): AccessModel {
  const { teams, ...rest } = plannedParts(desired, live, now, () => now.teams);
  return { ...rest, teams: teams() };
}

/** The model after the plan, its teams when asked (they are paired with the live ones then, once). */
function plannedParts(
  desired: DesiredOrganization,
  live: LiveOrganization,
  /** The live model but its teams: never changed. */
  now: Omit<AccessModel, 'teams'>,
  /** The live model's teams, made when asked. */
  nowTeams: () => AccessModel['teams'],
): Omit<AccessModel, 'teams'> & { teams: () => AccessModel['teams'] } {
  const prune = desired.policy.prune;
  const members = plannedMembers(desired, live, now);
  const memberId = memberLookup(members);
  let planned: AccessModel['teams'] | undefined;
  const teams = () =>
    (planned ??= desired.teams ? plannedTeams(desired.teams, live, nowTeams(), memberId, prune) : nowTeams());
  // The first team of each title: a map, not a search per grant.
  let byTitle: Map<string, string> | undefined;
  const teamId = (title: string): string => {
    if (!byTitle) {
      byTitle = new Map();
      for (const t of teams()) if (!byTitle.has(t.title)) byTitle.set(t.title, t.id);
    }
    return byTitle.get(title) ?? `${NEW.team}${title}`;
  };
  const { objects, entries } = plannedObjects(desired, live, now, prune);
  const subjectId: SubjectId = { team: teamId, member: memberId };
  const grants = plannedGrants(objects, entries, live, subjectId, prune);
  return { members, teams, objects: [...objects.values()], grants };
}

type MemberId = ReturnType<typeof memberLookup>;
/** The id a grant's subject has after the plan. */
type SubjectId = { team: (title: string) => string; member: MemberId };
type AccessObjects = Map<string, AccessModel['objects'][number]>;

/** Teams after the plan: the desired ones (paired with live ones), and omitted ones unless pruned. */
function plannedTeams(
  desiredTeams: NonNullable<DesiredOrganization['teams']>,
  live: LiveOrganization,
  /** The live model's teams. */
  nowTeams: AccessModel['teams'],
  memberId: MemberId,
  prune: boolean | undefined,
): AccessModel['teams'] {
  const { pairs, leftover } = pair(desiredTeams, live.teams ?? []);
  const liveTeams = new Map(nowTeams.map((t) => [t.id, t]));
  const omitted = new Set(leftover.map((l) => l.id));
  const kept = prune ? [] : nowTeams.filter((t) => omitted.has(t.id));
  return [
    ...pairs.map(([d, l]) => ({
      id: l?.id ?? `${NEW.team}${d.title}`,
      title: d.title,
      members: d.members
        ? d.members.map((m) => memberId(m.user))
        : ((l && liveTeams.get(l.id)?.members) ?? []),
    })),
    ...kept,
  ];
}

/** The objects after the plan (collections, spaces, sites) by id, and the desired entries by that id, for their grants. */
function plannedObjects(
  desired: DesiredOrganization,
  live: LiveOrganization,
  now: Omit<AccessModel, 'teams'>,
  prune: boolean | undefined,
): { objects: AccessObjects; entries: Map<string, WithGrants<DesiredGrant>> } {
  const entries = new Map<string, WithGrants<DesiredGrant>>();
  const objects: AccessObjects = new Map(now.objects.map((o) => [o.id, o]));

  // Collections by title after the plan: the live ones, then the desired ones over them.
  const collectionIds = new Map(
    now.objects.filter((o) => o.noun === 'collection').map((o) => [o.title, o.id]),
  );
  const collectionId = (title: string | null): string | null =>
    title === null ? null : (collectionIds.get(title) ?? title);
  if (desired.collections) {
    const { pairs, leftover } = pair(desired.collections, live.collections ?? []);
    if (prune) for (const l of leftover) objects.delete(l.id);
    for (const [d, l] of pairs) collectionIds.set(d.title, l?.id ?? `${NEW.collection}${d.title}`);
    for (const [d, l] of pairs) {
      const id = collectionIds.get(d.title)!;
      objects.set(id, {
        noun: 'collection',
        id,
        title: d.title,
        parent: d.parent === undefined ? (l?.parent ?? null) : collectionId(d.parent),
        defaultLevel: d.defaultLevel !== undefined ? d.defaultLevel : l ? l.defaultLevel : 'inherit',
      });
      entries.set(id, d);
    }
  }
  for (const s of desired.spaces ?? []) {
    const was = objects.get(s.id);
    if (!was) continue;
    objects.set(s.id, {
      ...was,
      ...(s.title !== undefined ? { title: s.title } : {}),
      ...(s.defaultLevel !== undefined ? { defaultLevel: s.defaultLevel } : {}),
      ...(s.parent !== undefined ? { parent: collectionId(s.parent) } : {}),
    });
    entries.set(s.id, s);
  }
  if (desired.sites) {
    const { pairs, leftover } = pair(desired.sites, live.sites ?? []);
    if (prune) for (const l of leftover) objects.delete(l.id);
    for (const [d, l] of pairs) {
      const id = l?.id ?? `${NEW.site}${d.title}`;
      objects.set(id, { noun: 'site', id, title: d.title, defaultLevel: null });
      entries.set(id, d);
    }
  }
  return { objects, entries };
}

/**
 * The grants after the plan: an entry's listed grants replace the live ones of the subjects they
 * name; the unlisted live ones stay unless pruned (the token's own user's always stay).
 */
function plannedGrants(
  objects: AccessObjects,
  entries: Map<string, WithGrants<DesiredGrant>>,
  live: LiveOrganization,
  subjectId: SubjectId,
  prune: boolean | undefined,
): Grant[] {
  const liveEntries = new Map(liveObjects(live).map((o) => [o.id, o.entry]));
  const grants: Grant[] = [];
  for (const o of objects.values()) {
    const liveEntry = liveEntries.get(o.id);
    const held = liveEntry ? (liveGrantsOf(liveEntry) ?? []) : [];
    const entry = entries.get(o.id);
    const wanted = entry ? desiredGrantsOf(entry) : undefined;
    if (!wanted) {
      grants.push(...held.map((g) => liveGrant(o.id, g)));
      continue;
    }
    const resolved = wanted.map((g: DesiredGrant): Grant => ({
      object: o.id,
      subject: 'team' in g ? { team: subjectId.team(g.team) } : { user: subjectId.member(g.member) },
      role: g.role as Role,
    }));
    const named = new Set(resolved.map((g) => subjectKey(g.subject)));
    const unlisted = held
      .map((g) => liveGrant(o.id, g))
      .filter((g) => !named.has(subjectKey(g.subject)))
      .filter((g) => !prune || ('user' in g.subject && g.subject.user === live.self));
    grants.push(...resolved, ...unlisted);
  }
  return grants;
}

const subjectKey = (s: Grant['subject']): string => ('team' in s ? `t:${s.team}` : `u:${s.user}`);

/** Members after the plan: listed roles set, unlisted e-mails invited, omitted ones kept unless pruned. */
function plannedMembers(
  desired: DesiredOrganization,
  live: LiveOrganization,
  now: Omit<AccessModel, 'teams'>,
): AccessModel['members'] {
  if (!desired.members) return now.members;
  const out = new Map(now.members.map((m) => [m.id, m]));
  const listed = new Set<string>();
  const idOf = memberLookup(now.members);
  for (const d of desired.members) {
    const lower = d.user.toLowerCase();
    const found = idOf(d.user);
    const m = out.get(found);
    const id = m ? found : `${NEW.member}${lower}`;
    listed.add(id);
    out.set(id, { id, email: m?.email ?? lower, role: d.role });
  }
  const self = live.self ?? null;
  if (desired.policy.pruneMembers && self !== null)
    for (const m of now.members) if (!listed.has(m.id) && m.id !== self) out.delete(m.id);
  return [...out.values()];
}

/** A member's id by id or e-mail (any case); what names no member is returned as it is. */
function memberLookup(members: AccessModel['members']): (user: string) => string {
  const ids = new Set(members.map((m) => m.id));
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m.id]));
  return (user) => (ids.has(user) ? user : (byEmail.get(user.toLowerCase()) ?? user));
}

/** The e-mail of every member of either model, by id (for the sentences). */
export function emailsOf(...models: AccessModel[]): Map<string, string> {
  return new Map(models.flatMap((m) => m.members.map((x) => [x.id, x.email] as const)));
}
