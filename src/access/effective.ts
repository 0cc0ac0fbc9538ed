/**
 * Effective access (issue 29): who can read, edit or administer each site, space and collection,
 * from the organization's roles, each object's default level (inherited through collections) and
 * the team and user grants on it and its ancestors. Pure: the same function computes the access
 * now (live state) and after a plan (live state with the plan's changes), and `diffAccess` puts
 * the difference in sentences a reviewer reads.
 *
 * Semantics (today's API, `DefaultLevel`, `MemberRole`): a default level is what every member of
 * the organization gets on the object; `inherit` takes the parent collection's, and at the top the
 * member's own organization role; `null` gives members nothing. A grant gives a team's members or
 * one user a role on the object and everything below it. An organization admin administers
 * everything. Guests (no organization role) have only what is granted to them. The strongest wins.
 */

/** Roles from weakest to strongest (the API's `MemberRole`). */
export const ROLE_ORDER = ['read', 'comment', 'review', 'edit', 'create', 'admin'] as const;
export type Role = (typeof ROLE_ORDER)[number];
const rank = (r: Role | null | undefined): number => (r ? ROLE_ORDER.indexOf(r) : -1);

export type AccessObject = {
  /** What it is called in a sentence (`space`, `collection`, `site`). */
  noun: string;
  id: string;
  title: string;
  /** The parent collection (collections and spaces). */
  parent?: string | null;
  /** `inherit`, a role, or null (members get nothing by default). */
  defaultLevel: Role | 'inherit' | null;
};

export type Grant = { object: string; subject: { team: string } | { user: string }; role: Role };

export type AccessModel = {
  members: { id: string; email: string; role: Role | null }[];
  teams: { id: string; title: string; members: string[] }[];
  objects: AccessObject[];
  grants: Grant[];
};

/** One user's access to one object, and why. */
export type Access = { role: Role; via: string };

/**
 * Per object (by id): what every member gets by default, and the members granted more (through
 * teams or directly, on the object or a collection above it). Members at the default are not
 * listed one by one, and organization admins (admin everywhere) never are: a row stays small
 * however large the organization.
 */
export type AccessMatrix = {
  rows: Map<string, AccessRow>;
  /** Each member's organization role (what `org-role` gives; `admin` administers everything). */
  orgRoles: Map<string, Role | null>;
  /** Each team's title, by id (for the teams' sentences). */
  teamTitles: Map<string, string>;
  /**
   * The teams granted a role on an object or a collection above it (by object id): the strongest,
   * and where. Computed when asked (only the rows a difference or an audit shows need it).
   */
  teamsOf: (object: string) => ReadonlyMap<string, Access>;
};

/**
 * `base`: what every member gets: a role, their own organization role (`org-role`), or nothing.
 * `users`: the grants that reach the object (shared between objects that inherit the same ones:
 * read it through `roleOf`). `sig`: equal signatures, equal access (with equal teams and roles).
 */
export type AccessRow = {
  object: AccessObject;
  base: Access | 'org-role' | null;
  users: ReadonlyMap<string, Access>;
  sig: string;
};

type Reach = { users: ReadonlyMap<string, Access>; sig: string };
const NONE: Reach = { users: new Map(), sig: '' };
const NO_TEAMS: ReadonlyMap<string, Access> = new Map();

/** Keep the stronger of a role already in `map` and `role`. */
function raiseIn(map: Map<string, Access>, key: string, access: Access): void {
  const now = map.get(key);
  if (!now || rank(access.role) > rank(now.role)) map.set(key, access);
}

/** The model's objects and teams by id, and the grants on each object. */
type ModelIndex = {
  objects: Map<string, AccessObject>;
  teams: Map<string, AccessModel['teams'][number]>;
  grantsOn: Map<string, Grant[]>;
};

/** The access of every member to every object (see `AccessMatrix`). */
export function effectiveAccess(model: AccessModel): AccessMatrix {
  const index = indexModel(model);
  const defaultOf = defaults(index);
  const reachBelow = reaches(index);
  const orgRoles = new Map(model.members.map((m) => [m.id, m.role]));
  const rows = new Map<string, AccessRow>();
  for (const object of model.objects) {
    const base = defaultOf(object.id);
    const reach = withOwn(index, object, reachBelow(object.parent), '');
    const baseSig = base === null ? '-' : base === 'org-role' ? 'org' : `${base.role}@${base.via}`;
    rows.set(object.id, {
      object,
      base,
      users: reach.users,
      sig: `${baseSig}${reach.sig}`,
    });
  }
  const teamsOf = teamAccess(index);
  return { rows, orgRoles, teamTitles: new Map(model.teams.map((t) => [t.id, t.title])), teamsOf };
}

function indexModel(model: AccessModel): ModelIndex {
  const objects = new Map(model.objects.map((o) => [o.id, o]));
  const teams = new Map(model.teams.map((t) => [t.id, t]));
  const grantsOn = new Map<string, Grant[]>();
  for (const g of model.grants) {
    const list = grantsOn.get(g.object);
    if (list) list.push(g);
    else grantsOn.set(g.object, [g]);
  }
  return { objects, teams, grantsOn };
}

/** What every member gets by default on an object: a role with its reason, their own org role, or nothing (cached). */
function defaults({ objects }: ModelIndex) {
  const cache = new Map<string, Access | 'org-role' | null>();
  const defaultOf = (id: string, depth = 0): Access | 'org-role' | null => {
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    const o = objects.get(id);
    let result: Access | 'org-role' | null;
    if (!o || depth > 64) result = null;
    else if (o.defaultLevel === 'inherit') result = o.parent ? defaultOf(o.parent, depth + 1) : 'org-role';
    else if (o.defaultLevel === null) result = null;
    else result = { role: o.defaultLevel, via: `default level of ${o.noun} ${o.title}` };
    cache.set(id, result);
    return result;
  };
  return defaultOf;
}

/** The grants of `o` over those that reach it from above; `where`: how they read from below. */
function withOwn({ teams, grantsOn }: ModelIndex, o: AccessObject, above: Reach, where: string): Reach {
  const own = grantsOn.get(o.id);
  if (!own) return above;
  const users = new Map(above.users);
  let sig = above.sig;
  for (const g of own) {
    if ('user' in g.subject) {
      raiseIn(users, g.subject.user, { role: g.role, via: `direct grant${where}` });
      sig += `|${o.id}:u:${g.subject.user}:${g.role}`;
    } else {
      const team = teams.get(g.subject.team);
      // One (immutable) access for every member of the team.
      const access = team ? { role: g.role, via: `team ${team.title}${where}` } : undefined;
      for (const u of team?.members ?? []) raiseIn(users, u, access!);
      sig += `|${o.id}:t:${g.subject.team}[${team?.members.join(',') ?? ''}]:${g.role}`;
    }
  }
  return { users, sig };
}

/** What a collection's grants (and those above it) give what it holds (cached). */
function reaches(index: ModelIndex) {
  const below = new Map<string, Reach>();
  const reachBelow = (id: string | null | undefined, depth = 0): Reach => {
    if (!id || depth > 64) return NONE;
    const cached = below.get(id);
    if (cached) return cached;
    const o = index.objects.get(id);
    const reach = o ? withOwn(index, o, reachBelow(o.parent, depth + 1), ` on ${o.noun} ${o.title}`) : NONE;
    below.set(id, reach);
    return reach;
  };
  return reachBelow;
}

/** The teams' grants on `o` over those from above (as `withOwn` does for members). */
function teamsWith(
  { grantsOn }: ModelIndex,
  o: AccessObject,
  above: ReadonlyMap<string, Access>,
  where: string,
): ReadonlyMap<string, Access> {
  const own = grantsOn.get(o.id)?.filter((g) => 'team' in g.subject);
  if (!own?.length) return above;
  const map = new Map(above);
  for (const g of own)
    raiseIn(map, (g.subject as { team: string }).team, {
      role: g.role,
      via: where ? `grant${where}` : 'direct grant',
    });
  return map;
}

/** Each team's access to an object, through grants on it and above it (the matrix's `teamsOf`). */
function teamAccess(index: ModelIndex) {
  const teamsBelowCache = new Map<string, ReadonlyMap<string, Access>>();
  const teamsBelow = (id: string | null | undefined, depth = 0): ReadonlyMap<string, Access> => {
    if (!id || depth > 64) return NO_TEAMS;
    const cached = teamsBelowCache.get(id);
    if (cached) return cached;
    const o = index.objects.get(id);
    const map = o
      ? teamsWith(index, o, teamsBelow(o.parent, depth + 1), ` on ${o.noun} ${o.title}`)
      : NO_TEAMS;
    teamsBelowCache.set(id, map);
    return map;
  };
  return (id: string): ReadonlyMap<string, Access> => {
    const o = index.objects.get(id);
    return o ? teamsWith(index, o, teamsBelow(o.parent), '') : NO_TEAMS;
  };
}

/** What the default gives one member: guests (no organization role) get nothing by default. */
function baseRole(base: AccessRow['base'], orgRole: Role | null | undefined): Role | null {
  if (!orgRole) return null;
  return base === 'org-role' ? orgRole : (base?.role ?? null);
}

/** One user's access to an object from a matrix row: the strongest of admin, the default and grants. */
export function roleOf(row: AccessRow, user: string, orgRoles: Map<string, Role | null>): Access | null {
  const role = orgRoles.get(user);
  if (role === 'admin') return { role: 'admin', via: 'organization admin' };
  const granted = row.users.get(user);
  // Guests (no organization role) have only what is granted to them.
  const base = baseRole(row.base, role);
  if (granted && rank(granted.role) > rank(base)) return granted;
  if (!base) return null;
  return row.base === 'org-role' ? { role: base, via: 'organization role' } : (row.base as Access);
}

/** What every member gets, in words (`read`, `their organization role`, `nothing`). */
function baseText(base: AccessRow['base'] | undefined): string | null {
  if (base === undefined || base === null) return null;
  return base === 'org-role' ? 'their organization role' : base.role;
}

/** Who a difference is about: every member (a default level), a team, or one member. */
export type SubjectKind = 'all' | 'team' | 'member';

/** A difference of effective access, as data (the plan's `access`) and as a sentence. */
export type AccessChange = {
  /** `ann@acme.com`, `Team Support`, or `all members`. */
  subject: string;
  subjectKind: SubjectKind;
  /** `space API Reference`. */
  object: string;
  /** The object's noun and title apart (`space`, `API Reference`), for renderers. */
  objectKind: string;
  objectTitle: string;
  /** A role, or (for all members) `their organization role`; null: no access. */
  before: Role | 'their organization role' | null;
  after: Role | 'their organization role' | null;
  /** Why the subject has its access after the plan (or had it, when it is lost). */
  via: string;
};

const SUBJECT_ORDER: Record<SubjectKind, number> = { all: 0, team: 1, member: 2 };

/** Review order: by object, then all members, teams, members; each by name. */
function byReviewOrder(x: AccessChange, y: AccessChange): number {
  const cmp = (p: string, q: string) => (p < q ? -1 : p > q ? 1 : 0);
  return (
    cmp(x.object, y.object) ||
    SUBJECT_ORDER[x.subjectKind] - SUBJECT_ORDER[y.subjectKind] ||
    cmp(x.subject, y.subject)
  );
}

/**
 * What changes between two matrices, object by object: the default every member gets, each team's
 * granted role, and each member's effective role; sorted for review (`byReviewOrder`).
 */
export function diffAccess(
  before: AccessMatrix,
  after: AccessMatrix,
  emails: ReadonlyMap<string, string>,
): AccessChange[] {
  const out: AccessChange[] = [];
  const ids = new Set([...before.rows.keys(), ...after.rows.keys()]);
  const members = new Set([...before.orgRoles.keys(), ...after.orgRoles.keys()]);
  const roleChanged = [...members].filter((u) => before.orgRoles.get(u) !== after.orgRoles.get(u));
  for (const id of ids) {
    const b = before.rows.get(id);
    const a = after.rows.get(id);
    if (a && b && a.sig === b.sig && roleChanged.length === 0) continue;
    const o = (a ?? b)!.object;
    const on = { object: describe(o), objectKind: o.noun, objectTitle: o.title };
    const baseBefore = baseText(b?.base);
    const baseAfter = baseText(a?.base);
    const baseChanged = baseBefore !== baseAfter;
    if (baseChanged)
      out.push({
        subject: 'all members',
        subjectKind: 'all',
        ...on,
        before: baseBefore as AccessChange['before'],
        after: baseAfter as AccessChange['after'],
        via: viaOf(a?.base ?? b?.base),
      });
    const teamsBefore = b ? before.teamsOf(id) : NO_TEAMS;
    const teamsAfter = a ? after.teamsOf(id) : NO_TEAMS;
    for (const team of new Set([...teamsBefore.keys(), ...teamsAfter.keys()])) {
      const was = teamsBefore.get(team);
      const is = teamsAfter.get(team);
      if ((was?.role ?? null) === (is?.role ?? null)) continue;
      const title = after.teamTitles.get(team) ?? before.teamTitles.get(team) ?? team;
      out.push({
        subject: `Team ${title}`,
        subjectKind: 'team',
        ...on,
        before: was?.role ?? null,
        after: is?.role ?? null,
        via: (is ?? was)!.via,
      });
    }
    // A changed default may change every member; else only those listed and those whose role changed.
    const users = baseChanged
      ? members
      : new Set([...(b?.users.keys() ?? []), ...(a?.users.keys() ?? []), ...roleChanged]);
    for (const u of users) {
      const was = b ? roleOf(b, u, before.orgRoles) : null;
      const is = a ? roleOf(a, u, after.orgRoles) : null;
      if ((was?.role ?? null) === (is?.role ?? null)) continue;
      // A member whose change is the default's change is said once, by "all members".
      if (
        baseChanged &&
        !b?.users.has(u) &&
        !a?.users.has(u) &&
        a?.base !== 'org-role' &&
        b?.base !== 'org-role'
      )
        continue;
      out.push({
        subject: emails.get(u) ?? u,
        subjectKind: 'member',
        ...on,
        before: was?.role ?? null,
        after: is?.role ?? null,
        via: (is ?? was)?.via ?? '',
      });
    }
  }
  return out.sort(byReviewOrder);
}

function viaOf(base: AccessRow['base'] | undefined): string {
  if (!base) return 'default level';
  return base === 'org-role' ? 'default level: inherit' : base.via;
}

function describe(o: AccessObject): string {
  return `${o.noun} ${o.title}`;
}

/** How a sentence's parts are written: plain text, or markdown (data escaped, titles in italics). */
export type SentenceStyle = { text: (data: string) => string; title: (title: string) => string };
const PLAIN: SentenceStyle = { text: (s) => s, title: (s) => s };

/**
 * "ann@acme.com gains admin on site Docs (via team Platform)", "Team Support: edit → read on space
 * API Reference (via direct grant)". Every piece of data goes through `style` (the renderers pass
 * `oneLine` or the markdown escaper); the words around them are docsync's own.
 */
export function accessSentence(c: AccessChange, style: SentenceStyle = PLAIN): string {
  const t = style.text;
  const on = `${c.objectKind} ${style.title(c.objectTitle)}`;
  const via = c.via ? ` (via ${t(c.via)})` : '';
  const subject = t(c.subject);
  if (c.subjectKind === 'all')
    return `${subject}: ${t(c.before ?? 'nothing')} → ${t(c.after ?? 'nothing')} on ${on}${via}`;
  if (c.before === null) return `${subject} gains ${t(c.after ?? '')} on ${on}${via}`;
  if (c.after === null) return `${subject} loses ${t(c.before)} on ${on}${via}`;
  return `${subject}: ${t(c.before)} → ${t(c.after)} on ${on}${via}`;
}

/** The matrix as rows for audits (`docsync access`): one per object and member above the default. */
export function accessRows(
  matrix: AccessMatrix,
  emails: ReadonlyMap<string, string>,
): { object: string; subject: string; role: Role; via: string }[] {
  const rows: { object: string; subject: string; role: Role; via: string }[] = [];
  for (const row of matrix.rows.values()) {
    const { object, base, users } = row;
    const name = describe(object);
    if (base && base !== 'org-role')
      rows.push({ object: name, subject: 'all members', role: base.role, via: base.via });
    for (const [u, a] of users)
      rows.push({ object: name, subject: emails.get(u) ?? u, role: a.role, via: a.via });
  }
  return rows;
}
