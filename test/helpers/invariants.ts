import type { EmulatorState } from '../../src/emulator/state.js';
import type { Plan } from '../../src/plan/types.js';

/** Identities that must never be duplicated by an apply: returns a description of each duplicate. */
export function duplicates(state: EmulatorState): string[] {
  const out: string[] = [];
  const check = (what: string, keys: string[]) => {
    const seen = new Set<string>();
    for (const k of keys) {
      if (seen.has(k)) out.push(`${what} ${k}`);
      seen.add(k);
    }
  };
  for (const org of state.organizations) {
    check(
      'site',
      org.sites.map((s) => s.title),
    );
    check(
      'team',
      org.teams.map((t) => t.title),
    );
    check(
      'custom field',
      org.customFields.map((f) => f.name),
    );
    check(
      'collection',
      org.collections.map((c) => `${c.parent ?? ''}/${c.title}`),
    );
    check(
      'OpenAPI spec',
      (org.openapi ?? []).map((o) => o.slug),
    );
    check(
      'SAML provider',
      (org.saml ?? []).map((p) => p.label),
    );
    check(
      'translation',
      (org.translations ?? []).map((t) => t.title ?? t.id),
    );
    for (const site of org.sites) {
      check(
        `section of ${site.title}`,
        site.sections.map((s) => s.path),
      );
      check(
        `site space of ${site.title}`,
        site.siteSpaces.map((s) => s.spaceId),
      );
      check(
        `share link of ${site.title}`,
        site.shareLinks.map((l) => l.name),
      );
      check(
        `group of ${site.title}`,
        site.groups.map((g) => g.title),
      );
    }
  }
  return out;
}

/** Ids that plans intended to delete (live ids of delete changes). */
export function plannedDeletions(...plans: Plan[]): Set<string> {
  const ids = new Set<string>();
  for (const plan of plans)
    for (const c of plan.changes) {
      if (c.action !== 'delete') continue;
      const op = c.op as Record<string, unknown>;
      for (const v of Object.values(op))
        if (v && typeof v === 'object' && 'id' in v) ids.add((v as { id: string }).id);
      // Kinds addressed by a key rather than a ref: custom fields, OpenAPI specs, members.
      for (const key of ['name', 'slug', 'userId']) if (typeof op[key] === 'string') ids.add(op[key]);
    }
  return ids;
}

/** The object id each DELETE request of the log targeted (its last path segment). */
export function deletedIds(requests: { method: string; path: string; status: number }[]): string[] {
  return requests
    .filter((r) => r.method === 'DELETE' && r.status >= 200 && r.status < 300)
    .map((r) => r.path.split('/').pop()!);
}
