import type { DesiredState, LiveState } from '../src/reconcile/index.js';
import type { LiveSite } from '../src/kinds/site.js';

/**
 * Synthetic desired and live models of about `n` resources (sites, sections, site spaces, teams,
 * custom fields), with ~10 % of fields changed, ~5 % created and ~5 % deleted, and shuffled
 * section order in some sites. No HTTP: for timing the diff and the planner.
 */
export function syntheticModels(n: number): { desired: DesiredState; live: LiveState; resources: number } {
  const sectionsPerSite = 25;
  const spacesPerSection = 4;
  const perSite = 1 + sectionsPerSite * (1 + spacesPerSection);
  const sites = Math.max(1, Math.floor((n * 0.8) / perSite));
  const teams = Math.floor(n * 0.15);
  const fields = Math.floor(n * 0.05);
  let random = 12345;
  const rnd = () => (random = (random * 1103515245 + 12345) % 2147483648) / 2147483648;

  const liveSites: LiveSite[] = [];
  const desiredSites: NonNullable<DesiredState['organizations'][number]['sites']> = [];
  let space = 0;
  for (let s = 0; s < sites; s += 1) {
    const sections = Array.from({ length: sectionsPerSite }, (_, i) => {
      const spaces = Array.from({ length: spacesPerSection }, (_, j) => ({
        id: `ss_${s}_${i}_${j}`,
        space: `space_${(space += 1)}`,
        path: `p${j}`,
        condition: null,
        default: j === 0,
        draft: false,
        hidden: false,
        pageId: null,
      }));
      return {
        id: `sec_${s}_${i}`,
        path: `section-${i}`,
        title: `Section ${i}`,
        icon: null,
        description: null,
        condition: null,
        default: i === 0,
        draft: false,
        localizedTitle: {},
        localizedDescription: {},
        group: null,
        spaces,
      };
    });
    liveSites.push({
      id: `site_${s}`,
      title: `Site ${s}`,
      visibility: 'public',
      basename: null,
      agentsContext: 'included',
      adaptiveContent: { enabled: false },
      proxy: null,
      sections,
    });
    const order = s % 4 === 0 ? [...sections].sort(() => rnd() - 0.5) : sections;
    desiredSites.push({
      title: `Site ${s}`,
      visibility: rnd() < 0.1 ? 'unlisted' : 'public',
      sections: order
        .filter(() => rnd() > 0.05)
        .map((sec) => ({
          path: sec.path,
          title: rnd() < 0.1 ? `${sec.title} (renamed)` : sec.title,
          spaces: sec.spaces
            .filter(() => rnd() > 0.05)
            .map((ss) => ({ space: ss.space, path: rnd() < 0.1 ? `${ss.path}-new` : ss.path })),
        }))
        .filter((sec) => sec.spaces.length > 0),
    });
  }
  const liveTeams = Array.from({ length: teams }, (_, i) => ({ id: `team_${i}`, title: `Team ${i}` }));
  const desiredTeams = liveTeams
    .filter(() => rnd() > 0.05)
    .map((t) => ({ title: rnd() < 0.05 ? `${t.title} new` : t.title }));
  const liveFields = Array.from({ length: fields }, (_, i) => ({
    name: `field_${i}`,
    type: 'text' as const,
    title: `Field ${i}`,
    description: null,
    placeholder: null,
    options: null,
  }));
  const desiredFields = liveFields.map((f) => ({
    name: f.name,
    type: f.type,
    title: rnd() < 0.1 ? `${f.title}!` : (f.title ?? undefined),
  }));
  return {
    desired: {
      organizations: [
        {
          id: 'org_bench',
          policy: { prune: true, maxDeletes: 1e9 },
          sites: desiredSites,
          teams: desiredTeams,
          customFields: desiredFields,
        },
      ],
    },
    live: {
      organizations: [{ id: 'org_bench', sites: liveSites, teams: liveTeams, customFields: liveFields }],
    },
    resources: sites * perSite + teams + fields,
  };
}
