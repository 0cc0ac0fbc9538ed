import { z } from 'zod';
import { memberRoles } from '../model/kinds.js';
import type { ApiList } from '../model/api-call.js';
import { roleOf, type AccessMatrix, type Role } from './effective.js';

/**
 * The live computation checked against the API's own (issue 29, decision 35): today's API answers
 * `GET …/permissions/aggregate` for a space, a collection and a site with every user who can
 * access it and their permission. A difference is a warning that names both: what the API says
 * and what docsync computes, and why. `compareAggregates` is pure; `aggregateList` is the one read
 * per object (the caller handles an API that serves none).
 */

/** One item of an aggregate answer (`UserContentPermission`, `UserSitePermission`). */
const AggregateItem = z.looseObject({
  permission: z.enum(memberRoles).nullable(),
  user: z.looseObject({ id: z.string(), email: z.string().nullish() }),
});
export type AggregateItem = z.infer<typeof AggregateItem>;

/** The aggregate answer of one object: its id and the users the API says can access it. */
export type AggregateAnswer = { object: string; items: readonly AggregateItem[] };

const ROUTES = {
  space: '/spaces/{space}/permissions/aggregate',
  collection: '/collections/{collection}/permissions/aggregate',
  site: '/orgs/{org}/sites/{site}/permissions/aggregate',
} as const;

/** The aggregate read of one object (`noun` as the access model names it). */
export function aggregateList(org: string, noun: string, id: string): ApiList<AggregateItem> | undefined {
  if (noun === 'space') return { route: ROUTES.space, params: { space: id }, item: AggregateItem };
  if (noun === 'collection')
    return { route: ROUTES.collection, params: { collection: id }, item: AggregateItem };
  if (noun === 'site') return { route: ROUTES.site, params: { org, site: id }, item: AggregateItem };
  return undefined;
}

/** At most this many warnings per organization; then one "and N more". */
export const AGGREGATE_WARNING_CAP = 20;

/**
 * What docsync computes against what the API answers, object by object: a user the API lists with
 * another role than docsync's, or one either side gives access that the other does not.
 */
export function compareAggregates(
  matrix: AccessMatrix,
  answers: readonly AggregateAnswer[],
  emails: ReadonlyMap<string, string>,
): string[] {
  const warnings: string[] = [];
  const name = (id: string, fallback?: string | null) => emails.get(id) ?? fallback ?? id;
  for (const answer of answers) {
    const row = matrix.rows.get(answer.object);
    if (!row) continue;
    const what = `${row.object.noun} ${row.object.title}`;
    const said = new Map(answer.items.map((i) => [i.user.id, i]));
    const users = new Set([...said.keys(), ...matrix.orgRoles.keys()]);
    for (const user of users) {
      const api: Role | null = said.get(user)?.permission ?? null;
      const ours = roleOf(row, user, matrix.orgRoles);
      if (api === (ours?.role ?? null)) continue;
      const who = name(user, said.get(user)?.user.email);
      const computed = ours ? `${ours.role} (via ${ours.via})` : 'no access';
      warnings.push(
        `${what}: the API's permissions/aggregate gives ${who} ${api ?? 'no access'}; docsync computes ${computed}`,
      );
    }
  }
  if (warnings.length <= AGGREGATE_WARNING_CAP) return warnings;
  return [
    ...warnings.slice(0, AGGREGATE_WARNING_CAP),
    `and ${warnings.length - AGGREGATE_WARNING_CAP} more differences from permissions/aggregate`,
  ];
}
