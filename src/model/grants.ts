import type { MemberRole } from './kinds.js';

/**
 * Grants (issue 29): a team's or a user's role on a space, a collection or a site, declared beside
 * the object it grants (the `access:` list of its config entry). This is the contract between the
 * kinds that read and write grants (src/kinds/) and the effective-access computation, the access
 * rules and `docsync access` (src/access/).
 */

/** What a grant may give: a member role. */
export type GrantRole = MemberRole;

/** The objects that take grants. */
export type GrantTarget = 'space' | 'collection' | 'site';

/**
 * A desired grant: the team by title, the member by e-mail (normalized to lower case). The config
 * key is `member:` (CONTRACT section 6: `{ member: ann@example.com, role: read }`), not `user:`.
 */
export type DesiredGrant = { team: string; role: GrantRole } | { member: string; role: GrantRole };

/** A live grant: the team or the member (the API's user) by id. */
export type LiveGrant = { team: string; role: GrantRole } | { member: string; role: GrantRole };

/** The key of the grants in a space's, collection's and site's desired and live entries. */
export const GRANTS_KEY = 'access';

/** The subject of a grant, for messages and identity (`team:Platform`, `member:ann@acme.com`). */
export const grantSubject = (g: DesiredGrant | LiveGrant): string =>
  'team' in g ? `team:${g.team}` : `member:${g.member}`;
