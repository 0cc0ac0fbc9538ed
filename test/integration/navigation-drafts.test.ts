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
import { commentBody } from '../../src/cli/comment.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { sitePreviews } from '../../src/pipeline/preview.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * Staged structure (issue 30): drafts of sections, groups and site spaces, hidden site spaces,
 * localized titles and a site space's home page, planned, applied (a draft is created as a draft,
 * never live first) and planned again to zero changes; exported and planned back to zero; refused
 * at validation for the seed flavor, where api.md has none of them.
 */
function seed() {
  const s = baseSeed(6);
  (s.organizations as Record<string, unknown>[])[0]!.sites = [
    {
      id: 'site_1',
      title: 'Docs',
      sectionGroups: [{ id: 'sg_1', title: 'Products' }],
      sections: [
        {
          id: 'sec_1',
          title: 'Guides',
          path: 'guides',
          sectionGroup: 'sg_1',
          siteSpaces: [
            { id: 'ss_1', space: 'space_1', path: 'v1' },
            { id: 'ss_2', space: 'space_2', path: 'v2' },
          ],
        },
        {
          id: 'sec_2',
          title: 'Reference',
          path: 'reference',
          siteSpaces: [{ id: 'ss_3', space: 'space_3' }],
        },
      ],
    },
  ];
  return s;
}

const CONFIG = `organization: org_t
sites:
  - title: Docs
    sections:
      - path: guides
        title: Guides
        localizedTitle: { fr: Guides FR }
        localizedDescription: { fr: Comment faire }
        spaces:
          - space: space_1
            path: v1
          - space: space_2
            path: v2
            hidden: true
            pageId: page_home
      - path: reference
        title: Reference
        draft: true
        spaces:
          - space: space_3
      - path: beta
        title: Beta
        draft: true
        spaces:
          - space: space_4
          - space: space_5
            draft: true
    sectionGroups:
      - title: Products
        draft: true
        localizedTitle: { de: Produkte }
        sections: [guides]
`;

const desired = (text = CONFIG) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('drafts, hidden site spaces and localized titles (current flavor)', () => {
  it('plans, applies (a draft section is created as a draft) and plans again to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired());
      expect(plan.errors).toEqual([]);
      const byAddress = (a: string) => plan.changes.filter((c) => c.address === `org_t/sites/Docs/${a}`);
      expect(byAddress('sections/reference').map((c) => [c.action, c.before, c.after])).toEqual([
        ['update', { draft: false }, { draft: true }],
      ]);
      expect(byAddress('sections/guides')[0]!.after).toEqual({
        localizedTitle: { fr: 'Guides FR' },
        localizedDescription: { fr: 'Comment faire' },
      });
      expect(byAddress('sections/guides/spaces/space_2')[0]!.after).toEqual({
        hidden: true,
        pageId: 'page_home',
      });
      expect(byAddress('section-groups/Products')[0]!.after).toEqual({
        draft: true,
        localizedTitle: { de: 'Produkte' },
      });
      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);

      // Created as drafts: never live in between.
      const posts = emu.requests().filter((r) => r.method === 'POST');
      expect(posts.find((r) => r.path.endsWith('/sections'))?.body).toMatchObject({
        spaceId: 'space_4',
        draft: true,
      });
      expect(posts.find((r) => r.path.endsWith('/site-spaces'))?.body).toMatchObject({
        spaceId: 'space_5',
        draft: true,
      });
      const site = emu.state().organizations[0]!.sites[0]!;
      expect(site.sections.map((s) => [s.path, s.draft ?? false])).toEqual([
        ['guides', false],
        ['reference', true],
        ['beta', true],
      ]);
      expect(site.groups[0]).toMatchObject({ draft: true, localizedTitle: { de: 'Produkte' } });
      expect(site.siteSpaces.find((ss) => ss.id === 'ss_2')).toMatchObject({
        hidden: true,
        pageId: 'page_home',
      });

      const again = (await makePlan(api, desired())).plan;
      expect(again.errors).toEqual([]);
      expect(again.changes).toEqual([]);

      // Promoting is an ordinary reviewed change: one update.
      const promoted = (
        await makePlan(
          api,
          desired(
            CONFIG.replace(
              '        draft: true\n        spaces:\n          - space: space_3',
              '        draft: false\n        spaces:\n          - space: space_3',
            ),
          ),
        )
      ).plan;
      expect(promoted.changes.map((c) => [c.action, c.address, c.after])).toEqual([
        ['update', 'org_t/sites/Docs/sections/reference', { draft: false }],
      ]);
      expect(writes(emu).length).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  });

  it('exports drafts, hidden site spaces, localized titles and home pages, and plans the export to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      expect((await applyPlan((await makePlan(api, desired())).plan, api)).ok).toBe(true);
      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
      const site = result.files.find((f) => f.path.startsWith('sites/'))!.text;
      for (const line of [
        'draft: true',
        'hidden: true',
        'pageId: page_home',
        'fr: Guides FR',
        'de: Produkte',
      ])
        expect(site).toContain(line);
      const out = mkdtempSync(join(tmpdir(), 'docsync-drafts-export-'));
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
});

describe('the seed flavor (api.md) has no drafts', () => {
  it('validation refuses each field at its place, with the file, line and column', async () => {
    const r = await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(CONFIG) }], {
      capabilities: capabilitiesOf('seed'),
    });
    const issues = r.issues.filter((i) => i.code === 'unsupported-by-api');
    expect(issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.path}`)).toEqual([
      'org.yaml:7:9 sites[0].sections[0].localizedTitle',
      'org.yaml:8:9 sites[0].sections[0].localizedDescription',
      'org.yaml:14:13 sites[0].sections[0].spaces[1].hidden',
      'org.yaml:15:13 sites[0].sections[0].spaces[1].pageId',
      'org.yaml:18:9 sites[0].sections[1].draft',
      'org.yaml:23:9 sites[0].sections[2].draft',
      'org.yaml:27:13 sites[0].sections[2].spaces[1].draft',
      'org.yaml:30:9 sites[0].sectionGroups[0].draft',
      'org.yaml:31:9 sites[0].sectionGroups[0].localizedTitle',
    ]);
    expect(issues[0]!.message).toMatch(/not in this API.*--api-flavor current/);
    const current = await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(CONFIG) }], {
      capabilities: capabilitiesOf('current'),
    });
    expect(current.issues).toEqual([]);
  });
});

describe('staged structure: the pull request comment links the site preview', () => {
  it("links the preview of each site the plan changes (today's API), and none in the seed flavor", async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan, live } = await makePlan(api, desired());
      const { previews, notes } = await sitePreviews(api, plan, live);
      expect(notes).toEqual([]);
      expect(previews).toEqual([
        {
          organization: 'org_t',
          site: 'Docs',
          url: 'https://docs.emulator.local/~preview/site_1',
        },
      ]);
      const body = commentBody(plan, { live, previews });
      expect(body).toContain('**Preview** of the sites this plan changes, drafts included');
      expect(body).toContain(`- Docs: <${previews[0]!.url}>`);
      // Nothing to preview when the plan leaves the navigation alone.
      expect((await sitePreviews(api, { ...plan, changes: [] }, live)).previews).toEqual([]);
    } finally {
      await api.close();
    }
    await emu.close();
    emu = await withEmulator({ seed: seed() });
    const seedApi = client(emu, { flavor: 'seed' });
    try {
      const plain = CONFIG.split('\n')
        .filter((l) => !/draft|hidden|pageId|localized/.test(l))
        .join('\n')
        .replace('path: v2\n', 'path: v3\n');
      const { plan, live } = await makePlan(seedApi, desired(plain));
      expect(plan.changes.length).toBeGreaterThan(0);
      expect(await sitePreviews(seedApi, plan, live)).toEqual({ previews: [], notes: [] });
    } finally {
      await seedApi.close();
    }
  });
});
