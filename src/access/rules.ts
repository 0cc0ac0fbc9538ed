import type { DesiredGrant } from '../model/grants.js';
import type { MemberRole } from '../model/kinds.js';
import { ROLE_ORDER } from './effective.js';

/**
 * Access rules (`policy.rules`, issue 29, decision 35): declarative checks of an organization's
 * grants, evaluated offline on the config alone (by `validate` and `plan`, before any network
 * call). Pure: the caller gives every entry with its place (a file and key path) and gets back the
 * violations at the entry or grant that breaks each rule.
 */

export const ACCESS_RULES = ['requireAdminTeam', 'teamsOnly', 'noEditForGuests', 'maxAdmins'] as const;
export type AccessRuleName = (typeof ACCESS_RULES)[number];

/** What each rule asks, in the words of the reference and of its errors. */
export const RULE_TEXT: Record<AccessRuleName, string> = {
  requireAdminTeam:
    'every space the config lists has a team with admin on it or on a collection above it (by `parent`)',
  teamsOnly: 'grants go to teams only, never to individual members',
  noEditForGuests:
    'no grant gives edit or more (edit, create, admin) to a guest: a member whose role in `members` is null, directly or as a member of a team in `teams`',
  maxAdmins: 'each space, collection and site has at most `max` admin grants (teams and members)',
};

/** A rule as the config gives it, with its place. */
export type RuleEntry<P> = { rule: AccessRuleName; max?: number | undefined; at: P };

/** A space, collection or site of the config: its grants (undefined: not managed) and place. */
export type GrantHolder<P> = {
  noun: 'space' | 'collection' | 'site';
  /** The space's id, the collection's or site's title. */
  name: string;
  /** Collections and spaces: the parent collection's title (undefined: not given, null: top level). */
  parent?: string | null | undefined;
  access?: readonly DesiredGrant[] | undefined;
  at: P;
  /** The place of the grant at `index` of `access`. */
  grantAt: (index: number) => P;
};

export type RulesInput<P> = {
  rules: readonly RuleEntry<P>[];
  holders: readonly GrantHolder<P>[];
  /** The config's `members` (user id or e-mail, role; null role: guest); undefined when not listed. */
  members?: readonly { user: string; role: MemberRole | null }[] | undefined;
  /** The config's teams and their listed members (user id or e-mail). */
  teams?: readonly { title: string; members?: readonly string[] | undefined }[] | undefined;
};

/** One broken rule: where (the entry or grant), which rule (and where it is written), and why. */
export type RuleViolation<P> = { at: P; rule: AccessRuleName; ruleAt: P; message: string };

const EDIT = ROLE_ORDER.indexOf('edit');
const grantName = (g: DesiredGrant) => ('team' in g ? `team ${g.team}` : `member ${g.member}`);

/** Every violation of every rule, in the order of the rules, then of the entries. */
export function checkAccessRules<P>(input: RulesInput<P>): RuleViolation<P>[] {
  const out: RuleViolation<P>[] = [];
  for (const r of input.rules) {
    const report = (at: P, message: string) => out.push({ at, rule: r.rule, ruleAt: r.at, message });
    if (r.rule === 'requireAdminTeam') requireAdminTeam(input, report);
    else if (r.rule === 'teamsOnly') teamsOnly(input, report);
    else if (r.rule === 'noEditForGuests') noEditForGuests(input, report);
    else maxAdmins(input, r.max ?? 0, report);
  }
  return out;
}

type Report<P> = (at: P, message: string) => void;

function requireAdminTeam<P>(input: RulesInput<P>, report: Report<P>): void {
  const collections = new Map(
    input.holders.filter((h) => h.noun === 'collection').map((h) => [h.name, h] as const),
  );
  const hasAdminTeam = (h: GrantHolder<P> | undefined, depth = 0): boolean => {
    if (!h || depth > 64) return false;
    if ((h.access ?? []).some((g) => 'team' in g && g.role === 'admin')) return true;
    return h.parent ? hasAdminTeam(collections.get(h.parent), depth + 1) : false;
  };
  for (const h of input.holders)
    if (h.noun === 'space' && !hasAdminTeam(h))
      report(
        h.at,
        `space ${h.name} has no team with admin on it or on a collection above it${h.access === undefined ? ' (it has no `access` list)' : ''}`,
      );
}

function teamsOnly<P>(input: RulesInput<P>, report: Report<P>): void {
  for (const h of input.holders)
    (h.access ?? []).forEach((g, i) => {
      if ('member' in g)
        report(
          h.grantAt(i),
          `${h.noun} ${h.name} grants ${g.role} to member ${g.member}; only teams may be granted`,
        );
    });
}

function noEditForGuests<P>(input: RulesInput<P>, report: Report<P>): void {
  const guests = new Set(
    (input.members ?? []).filter((m) => m.role === null).map((m) => m.user.toLowerCase()),
  );
  if (guests.size === 0) return;
  const teamGuests = new Map(
    (input.teams ?? []).map((t) => [t.title, (t.members ?? []).filter((u) => guests.has(u.toLowerCase()))]),
  );
  for (const h of input.holders)
    (h.access ?? []).forEach((g, i) => {
      if (ROLE_ORDER.indexOf(g.role) < EDIT) return;
      const who =
        'member' in g
          ? guests.has(g.member.toLowerCase())
            ? [g.member]
            : []
          : (teamGuests.get(g.team) ?? []);
      if (who.length === 0) return;
      const through = 'team' in g ? ` through team ${g.team}` : '';
      report(
        h.grantAt(i),
        `${h.noun} ${h.name} gives ${g.role} to guest ${who.join(', ')}${through}; guests may have at most review`,
      );
    });
}

function maxAdmins<P>(input: RulesInput<P>, max: number, report: Report<P>): void {
  for (const h of input.holders) {
    const admins = (h.access ?? []).flatMap((g, i) => (g.role === 'admin' ? [{ g, i }] : []));
    if (admins.length <= max) continue;
    const extra = admins[max]!;
    report(
      h.grantAt(extra.i),
      `${h.noun} ${h.name} has ${admins.length} admin grants (${admins.map((a) => grantName(a.g)).join(', ')}); at most ${max} allowed`,
    );
  }
}
