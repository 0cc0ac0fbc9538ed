import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The request-heavy organization of issue 33, scaled by its number of sites (664 in full). */
export type HeavyShape = {
  sites: number;
  sectionsPerSite: number;
  spacesPerSection: number;
  shareLinksPerSite: number;
  teams: number;
  membersPerTeam: number;
  members: number;
  customFields: number;
};

export const HEAVY_FULL: HeavyShape = {
  sites: 664,
  sectionsPerSite: 25,
  spacesPerSection: 4,
  shareLinksPerSite: 2,
  teams: 3000,
  membersPerTeam: 4,
  members: 40,
  customFields: 50,
};

/** The same shape with a tenth of the sites and teams (`--quick`). */
export const HEAVY_QUICK: HeavyShape = { ...HEAVY_FULL, sites: 66, teams: 300 };

/** Resources the config manages: sites, sections, site spaces, share links, teams, memberships, fields. */
export function heavyResources(s: HeavyShape): number {
  const perSite = 1 + s.sectionsPerSite * (1 + s.spacesPerSection) + s.shareLinksPerSite;
  return s.sites * perSite + s.teams * (1 + s.membersPerTeam) + s.customFields;
}

/**
 * The organization as a config folder (one file per site, one for the organization's policy,
 * teams and custom fields) and as the emulator's seed: the live side equals the desired one, so
 * the plan is empty and every request is a list read.
 */
export function writeHeavyScenario(s: HeavyShape, dir: string): { seed: unknown; files: number } {
  mkdirSync(dir, { recursive: true });
  const members = Array.from({ length: s.members }, (_, i) => ({
    id: `user_${i}`,
    email: `u${i}@example.com`,
    role: 'edit',
  }));
  const teamMembers = (t: number) =>
    Array.from({ length: s.membersPerTeam }, (_, j) => `u${(t * 7 + j) % s.members}@example.com`);
  const head = [
    'organization: org_heavy',
    'policy:',
    '  prune: true',
    '  maxDeletes: 1000000000',
    'customFields:',
    ...Array.from({ length: s.customFields }, (_, i) => [
      `  - name: field_${i}`,
      '    type: text',
      `    title: Field ${i}`,
    ]).flat(),
    'teams:',
    ...Array.from({ length: s.teams }, (_, t) => [
      `  - title: Team ${t}`,
      `    members: [${teamMembers(t).join(', ')}]`,
    ]).flat(),
  ];
  writeFileSync(join(dir, 'organization.yaml'), head.join('\n') + '\n');
  const space = (site: number, sec: number, j: number) =>
    `space_${(site * s.sectionsPerSite + sec) * s.spacesPerSection + j}`;
  const seedSites = [];
  for (let site = 0; site < s.sites; site += 1) {
    const lines = [
      'organization: org_heavy',
      'sites:',
      `  - title: Site ${site}`,
      '    visibility: public',
      '    shareLinks:',
      ...Array.from({ length: s.shareLinksPerSite }, (_, l) => `      - name: link-${l}`),
      '    sections:',
    ];
    for (let sec = 0; sec < s.sectionsPerSite; sec += 1) {
      lines.push(`      - path: s${sec}`, `        title: Section ${sec}`, '        spaces:');
      for (let j = 0; j < s.spacesPerSection; j += 1)
        lines.push(`          - space: ${space(site, sec, j)}`, `            path: v${j}`);
    }
    writeFileSync(join(dir, `site-${String(site).padStart(3, '0')}.yaml`), lines.join('\n') + '\n');
    seedSites.push({
      title: `Site ${site}`,
      visibility: 'public',
      shareLinks: Array.from({ length: s.shareLinksPerSite }, (_, l) => ({ name: `link-${l}` })),
      sections: Array.from({ length: s.sectionsPerSite }, (_, sec) => ({
        title: `Section ${sec}`,
        path: `s${sec}`,
        siteSpaces: Array.from({ length: s.spacesPerSection }, (_, j) => ({
          space: space(site, sec, j),
          path: `v${j}`,
        })),
      })),
    });
  }
  const seed = {
    organizations: [
      {
        id: 'org_heavy',
        members,
        spaces: Array.from({ length: s.sites * s.sectionsPerSite * s.spacesPerSection }, (_, i) => ({
          id: `space_${i}`,
          title: `Space ${i}`,
        })),
        customFields: Array.from({ length: s.customFields }, (_, i) => ({
          name: `field_${i}`,
          type: 'text',
          title: `Field ${i}`,
        })),
        teams: Array.from({ length: s.teams }, (_, t) => ({ title: `Team ${t}`, members: teamMembers(t) })),
        sites: seedSites,
      },
    ],
  };
  return { seed, files: s.sites + 1 };
}
