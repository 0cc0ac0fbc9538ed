import type { Change } from '../reconcile/index.js';

/**
 * Each organization's changes (those at an address below it), in plan order: one pass over the
 * plan, not one per organization. An organization id with a `/` in it (never an API id) is
 * matched by prefix as before.
 */
export function changesByOrganization(
  changes: readonly Change[],
  organizations: readonly string[],
): (organization: string) => Change[] {
  const byOrg = new Map<string, Change[]>(organizations.map((o) => [o, []]));
  const slashed = organizations.filter((o) => o.includes('/'));
  if (slashed.length === 0)
    for (let i = 0; i < changes.length; i += 1) {
      const c = changes[i]!;
      const at = c.address.indexOf('/');
      if (at >= 0) byOrg.get(c.address.slice(0, at))?.push(c);
    }
  return (organization) =>
    slashed.length === 0
      ? byOrg.get(organization)!
      : changes.filter((c) => c.address.startsWith(`${organization}/`));
}
