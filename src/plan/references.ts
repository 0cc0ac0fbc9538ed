import { didYouMean } from '../model/did-you-mean.js';
import type { DesiredOrganization, LiveOrganization } from '../model/index.js';

/**
 * Plan-time resolution (issue 27): every value of the config that names a live object the config
 * does not create is checked against the live state the plan read, so that a reference nothing
 * answers is a plan error, never a call that fails half-way through an apply. Pure: the pipeline
 * reads what is needed (src/pipeline/resolve.ts) and passes it in as `Known`.
 */

/**
 * What a reference names: a space (by id), an organization member (id or e-mail), a custom field,
 * a team or a site (by name; these may also be created by the same plan).
 */
export type ReferenceTarget = 'space' | 'user' | 'custom-field' | 'team' | 'site';

/** One value of the config that names a live object. `path` is inside the normalized organization. */
export type ConfigReference = {
  target: ReferenceTarget;
  id: string;
  path: (string | number)[];
  /** The entry that holds it, for people: `site "Docs" section "guides"`. */
  holder: string;
};

/** Live objects a reference may name, as the pipeline read them (undefined: not needed, not read). */
export type Known = {
  /** Space id → title, for the spaces checked (and those the live sites already hold). */
  spaces?: Map<string, string | null>;
  users?: { id: string; email: string | null }[];
  customFields?: string[];
  /** Titles of live teams and sites, and of those the config describes (the plan creates them). */
  teams?: string[];
  sites?: string[];
};

/** A reference that nothing live answers. */
export type UnresolvedReference = ConfigReference & { message: string };

const NOUN: Record<ReferenceTarget, string> = {
  space: 'space',
  user: 'member',
  'custom-field': 'custom field',
  team: 'team',
  site: 'site',
};

/** Every reference of one organization, in config order. */
export function referencesOf(org: DesiredOrganization): ConfigReference[] {
  const out: ConfigReference[] = [];
  org.sites?.forEach((site, i) => {
    site.sections?.forEach((section, j) =>
      section.spaces.forEach((s, k) =>
        out.push({
          target: 'space',
          id: s.space,
          path: ['sites', i, 'sections', j, 'spaces', k, 'space'],
          holder: `site "${site.title}" section "${section.path}"`,
        }),
      ),
    );
    site.spaces?.forEach((s, k) =>
      out.push({
        target: 'space',
        id: s.space,
        path: ['sites', i, 'spaces', k, 'space'],
        holder: `site "${site.title}"`,
      }),
    );
  });
  org.teams?.forEach((team, i) =>
    team.members?.forEach((m, j) =>
      out.push({
        target: 'user',
        id: m.user,
        path: ['teams', i, 'members', j, 'user'],
        holder: `team "${team.title}"`,
      }),
    ),
  );
  // Values of fields the config declares are checked offline (validate); the others name live fields.
  if (org.customFields === undefined)
    org.spaces?.forEach((space, i) => {
      for (const name of Object.keys(space.customFields ?? {}))
        out.push({
          target: 'custom-field',
          id: name,
          path: ['spaces', i, 'customFields', name],
          holder: `space ${space.id}`,
        });
    });
  org.saml?.forEach((p, i) => {
    if (p.defaultTeam !== undefined)
      out.push({
        target: 'team',
        id: p.defaultTeam,
        path: ['saml', i, 'defaultTeam'],
        holder: `saml "${p.label}"`,
      });
  });
  const defaultSite = org.settings?.defaultContent?.site;
  if (defaultSite !== undefined)
    out.push({
      target: 'site',
      id: defaultSite,
      path: ['settings', 'defaultContent', 'site'],
      holder: 'settings.defaultContent',
    });
  return out;
}

/** Space ids the live sites already hold: proven to exist by the live read itself. */
export function spacesHeld(live: LiveOrganization): Set<string> {
  const ids = new Set<string>();
  for (const site of live.sites ?? []) {
    for (const section of site.sections ?? []) for (const s of section.spaces) ids.add(s.space);
    for (const s of site.spaces ?? []) ids.add(s.space);
  }
  for (const s of live.spaces ?? []) if (s.title !== undefined) ids.add(s.id);
  return ids;
}

/** Users a team already holds (proven by the live read). */
function teamUsers(live: LiveOrganization): { id: string; email: string | null }[] {
  return (live.teams ?? []).flatMap((t) => (t.members ?? []).map((m) => ({ id: m.userId, email: m.email })));
}

/** The references to check against the API: those the live read does not already prove. */
export function referencesToCheck(
  refs: readonly ConfigReference[],
  live: LiveOrganization,
): ConfigReference[] {
  const held = spacesHeld(live);
  const users = teamUsers(live);
  return refs.filter((r) => {
    if (r.target === 'space') return !held.has(r.id);
    if (r.target === 'user') return !users.some((u) => sameUser(r.id, u));
    if (r.target === 'team') return !(live.teams?.some((t) => t.title === r.id) ?? false);
    if (r.target === 'site') return !(live.sites?.some((t) => t.title === r.id) ?? false);
    return true;
  });
}

const sameUser = (ref: string, u: { id: string; email: string | null }) =>
  u.id === ref || (u.email !== null && u.email.toLowerCase() === ref.toLowerCase());

/** The references that nothing in `known` answers, each with a message that names the way out. */
export function unresolvedReferences(
  org: string,
  refs: readonly ConfigReference[],
  known: Known,
): UnresolvedReference[] {
  const out: UnresolvedReference[] = [];
  for (const r of refs) {
    const names = candidates(r.target, known);
    if (names === undefined || found(r, known)) continue;
    const hint = didYouMean(r.id, names);
    const named = r.target === 'team' || r.target === 'site' ? `"${r.id}"` : r.id;
    const shown = hint && (r.target === 'team' || r.target === 'site') ? `"${hint}"` : hint;
    out.push({
      ...r,
      message: `${r.holder}: ${NOUN[r.target]} ${named} does not exist in ${org}${shown ? `; did you mean ${shown}?` : ''}`,
    });
  }
  return out;
}

function found(r: ConfigReference, known: Known): boolean {
  if (r.target === 'space') return known.spaces!.has(r.id);
  if (r.target === 'user') return known.users!.some((u) => sameUser(r.id, u));
  if (r.target === 'team') return known.teams!.includes(r.id);
  if (r.target === 'site') return known.sites!.includes(r.id);
  return known.customFields!.includes(r.id);
}

/** The live names a reference could have meant (undefined: that kind was not read, nothing to judge). */
function candidates(target: ReferenceTarget, known: Known): string[] | undefined {
  if (target === 'space')
    return known.spaces && [...known.spaces].flatMap(([id, title]) => (title ? [id, title] : [id]));
  if (target === 'user') return known.users?.flatMap((u) => (u.email ? [u.email, u.id] : [u.id]));
  if (target === 'team') return known.teams;
  if (target === 'site') return known.sites;
  return known.customFields;
}
