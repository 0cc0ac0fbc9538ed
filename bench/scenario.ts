import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesiredSite } from '../src/kinds/site.js';
import { syntheticModels } from './synthetic.js';

/** A plain YAML scalar when it is safe, a JSON (double-quoted) one otherwise. */
const str = (value: string) => (/^[A-Za-z_][\w .()!-]*$/.test(value) ? value : JSON.stringify(value));

const SITES_PER_FILE = 20;

function siteYaml(site: DesiredSite): string {
  const out = [`  - title: ${str(site.title)}`];
  if (site.visibility) out.push(`    visibility: ${site.visibility}`);
  out.push('    sections:');
  for (const sec of site.sections ?? []) {
    out.push(
      `      - path: ${str(sec.path)}`,
      `        title: ${str(sec.title ?? sec.path)}`,
      '        spaces:',
    );
    for (const ss of sec.spaces)
      out.push(`          - space: ${str(ss.space)}`, `            path: ${str(ss.path!)}`);
  }
  return out.join('\n');
}

/**
 * The synthetic organization of about `n` resources as a config folder (one file for policy, teams
 * and custom fields, one file per 20 sites) and as the emulator's seed (the live side).
 */
export function writeScenario(n: number, dir: string): { seed: unknown; resources: number; files: number } {
  const { desired, live, resources } = syntheticModels(n);
  const org = desired.organizations[0]!;
  const liveOrg = live.organizations[0]!;
  mkdirSync(dir, { recursive: true });
  const head = [
    `organization: ${org.id}`,
    'policy:',
    '  prune: true',
    '  maxDeletes: 1000000000',
    'customFields:',
    ...(org.customFields ?? []).flatMap((f) => [
      `  - name: ${str(f.name)}`,
      `    type: ${f.type}`,
      ...(f.title !== undefined ? [`    title: ${str(f.title)}`] : []),
    ]),
    'teams:',
    ...(org.teams ?? []).map((t) => `  - title: ${str(t.title)}`),
  ];
  writeFileSync(join(dir, 'organization.yaml'), head.join('\n') + '\n');
  const sites = org.sites ?? [];
  let files = 1;
  for (let i = 0; i < sites.length; i += SITES_PER_FILE) {
    const chunk = sites.slice(i, i + SITES_PER_FILE).map(siteYaml);
    const name = `sites-${String(i / SITES_PER_FILE).padStart(3, '0')}.yaml`;
    writeFileSync(join(dir, name), `organization: ${org.id}\nsites:\n${chunk.join('\n')}\n`);
    files += 1;
  }
  const seed = {
    organizations: [
      {
        id: org.id,
        teams: (liveOrg.teams ?? []).map((t) => ({ id: t.id, title: t.title })),
        customFields: (liveOrg.customFields ?? []).map((f) => ({
          name: f.name,
          type: f.type,
          title: f.title,
        })),
        sites: (liveOrg.sites ?? []).map((s) => ({
          id: s.id,
          title: s.title,
          visibility: s.visibility,
          sections: (s.sections ?? []).map((sec) => ({
            id: sec.id,
            title: sec.title,
            path: sec.path,
            default: sec.default,
            siteSpaces: sec.spaces.map((ss) => ({
              id: ss.id,
              space: ss.space,
              path: ss.path,
              default: ss.default,
            })),
          })),
        })),
      },
    ],
  };
  return { seed, resources, files };
}
