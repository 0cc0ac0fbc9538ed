import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig, loadConfigFromBuffersAsync } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderNavigation } from '../../src/plan/render-navigation.js';
import { renderText } from '../../src/plan/render-text.js';
import { renderTreeText } from '../../src/plan/render-tree.js';
import { structureTree } from '../../src/plan/structure-tree.js';
import { baseSeed, call, client, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * External links in a site's navigation (issue 30, today's API): read in the site's structure (the
 * API has no list of them), created, changed, deleted and ordered among themselves with one call
 * each; exported and planned back to zero changes; refused at validation for the seed flavor.
 */
function seed() {
  const s = baseSeed(3);
  (s.organizations as Record<string, unknown>[])[0]!.sites = [
    {
      id: 'site_1',
      title: 'Docs',
      sections: [{ id: 'sec_1', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_1' }] }],
      externalLinks: [
        { id: 'sel_status', title: 'Status', url: 'https://status.example.com' },
        { id: 'sel_forum', title: 'Forum', url: 'https://forum.example.com', icon: 'users' },
        { id: 'sel_old', title: 'Old blog', url: 'https://blog.example.com' },
      ],
    },
  ];
  return s;
}

const CONFIG = `organization: org_t
policy:
  prune: true
sites:
  - title: Docs
    sections:
      - path: guides
        spaces: [{ space: space_1 }]
    externalLinks:
      - title: Community
        previously: [Forum]
        url: https://forum.example.com
        icon: users
      - title: Status
        url: https://status.example.com/docs
        description: Is it up?
      - title: Changelog
        url: https://example.com/changelog
        draft: true
        localizedTitle: { fr: Nouveautés }
`;

const desired = (text = CONFIG) => desiredFromYaml(text);

const links = (emu: Emulator) =>
  (emu.state().organizations[0]!.sites[0]!.externalLinks ?? []) as {
    id: string;
    title: string;
    url: string;
    draft: boolean;
  }[];

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('external links against the emulator (current flavor)', () => {
  it('plans, applies (one call per change, a draft created as a draft) and plans again to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired());
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
        'update site-external-link org_t/sites/Docs/external-links/Community',
        'update site-external-link org_t/sites/Docs/external-links/Status',
        'create site-external-link org_t/sites/Docs/external-links/Changelog',
        'delete site-external-link org_t/sites/Docs/external-links/Old blog',
        'move site-external-link org_t/sites/Docs/external-links/Community',
      ]);
      expect(renderText(plan)).toContain('external-links/Changelog');
      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      expect(
        writes(emu)
          .map((w) => `${w.method} ${w.path.replace(/sel_\w+$/, 'ID')} ${w.status}`)
          .sort(),
      ).toEqual([
        'DELETE /v1/orgs/org_t/sites/site_1/external-links/ID 205',
        'PATCH /v1/orgs/org_t/sites/site_1/external-links/ID 200',
        'PATCH /v1/orgs/org_t/sites/site_1/external-links/ID 200',
        'PATCH /v1/orgs/org_t/sites/site_1/structure/sort 204',
        'POST /v1/orgs/org_t/sites/site_1/external-links 201',
      ]);
      const created = emu.requests().find((r) => r.method === 'POST')!;
      expect(created.body).toEqual({
        title: 'Changelog',
        url: 'https://example.com/changelog',
        draft: true,
        localizedTitle: { fr: 'Nouveautés' },
      });
      expect(links(emu).map((l) => [l.id.startsWith('sel_') ? l.title : l.id, l.draft])).toEqual([
        ['Community', false],
        ['Status', false],
        ['Changelog', true],
      ]);
      // The renamed link kept its id.
      expect(links(emu)[0]!.id).toBe('sel_forum');

      const again = (await makePlan(api, desired())).plan;
      expect(again.errors).toEqual([]);
      expect(again.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('exports external links and plans the export to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      expect((await applyPlan((await makePlan(api, desired())).plan, api)).ok).toBe(true);
      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
      const site = result.files.find((f) => f.path.startsWith('sites/'))!.text;
      expect(site).toContain('externalLinks:');
      expect(site).toContain('url: https://example.com/changelog');
      expect(site).toContain('fr: Nouveautés');
      const out = mkdtempSync(join(tmpdir(), 'docsync-links-export-'));
      for (const f of result.files) writeFileSync(join(out, f.path.replace(/\//g, '_')), f.text);
      const loaded = await loadConfig(out);
      expect(loaded.issues).toEqual([]);
      const { plan } = await makePlan(api, loaded.desired!);
      expect(plan.errors).toEqual([]);
      expect(plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('the seed flavor has no external links: the emulator does not serve them and validation refuses the key', async () => {
    emu = await withEmulator({ seed: seed() });
    expect(
      (
        await call(emu, 'POST', '/orgs/org_t/sites/site_1/external-links', {
          title: 'X',
          url: 'https://x.io',
        })
      ).status,
    ).toBe(404);
    expect((await call(emu, 'GET', '/orgs/org_t/sites/site_1/structure')).status).toBe(404);
    const r = await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(CONFIG) }], {
      capabilities: capabilitiesOf('seed'),
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.path}`)).toEqual([
      'org.yaml:9:5 unsupported-by-api sites[0].externalLinks',
    ]);
  });
});

describe('the navigation tree shows external links, drafts and hidden site spaces', () => {
  it('now and after the plan (text and markdown), with the changes marked', async () => {
    const s = seed();
    const site = (s.organizations as Record<string, any>[])[0]!.sites[0];
    site.sections[0].siteSpaces.push({ space: 'space_2', path: 'beta', hidden: true });
    site.sections.push({ title: 'Drafts', path: 'drafts', draft: true, siteSpaces: [{ space: 'space_3' }] });
    emu = await withEmulator({ seed: s, flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const config = CONFIG.replace(
        '        spaces: [{ space: space_1 }]',
        '        spaces: [{ space: space_1 }, { space: space_2, hidden: false }]\n      - path: drafts\n        draft: false\n        spaces: [{ space: space_3 }]',
      );
      const { plan, live } = await makePlan(api, desired(config));
      expect(plan.errors).toEqual([]);
      expect(renderTreeText(structureTree(plan.organizations, live, []))).toBe(
        [
          '  org_t',
          '    Docs (site)',
          '      Guides /guides',
          '        space_1 /space-1',
          '        space_2 /beta [hidden]',
          '      Drafts /drafts [draft]',
          '        space_3 /space-3',
          '      Status → https://status.example.com (external link)',
          '      Forum → https://forum.example.com (external link)',
          '      Old blog → https://blog.example.com (external link)',
        ].join('\n'),
      );
      const after = renderTreeText(
        structureTree(plan.organizations, live, plan.changes, { arrange: 'after' }),
        {
          marks: true,
        },
      );
      for (const line of [
        '~       space_2 /beta\n',
        '~     Drafts /drafts\n',
        '↕     Community → https://forum.example.com (external link)',
        '~     Status → https://status.example.com/docs (external link)',
        '-     Old blog → https://blog.example.com (external link)',
        '+     Changelog → https://example.com/changelog (external link) [draft]',
      ])
        expect(after).toContain(line);
      expect(renderNavigation(plan.organizations, live, plan.changes)).toContain(
        '+     Changelog → https://example.com/changelog (external link) [draft]',
      );
    } finally {
      await api.close();
    }
  });
});
