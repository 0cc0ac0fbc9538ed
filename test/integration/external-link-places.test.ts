import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig, loadConfigFromBuffersAsync } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderTreeText } from '../../src/plan/render-tree.js';
import { structureTree } from '../../src/plan/structure-tree.js';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { baseSeed, call, client, withEmulator } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * External links placed in the navigation (issue 30, today's API): in a section group (`group`,
 * created with `parent`, moved with `PATCH parent`) and right after a section, group or link of
 * their level (`after`, one structure sort call each); planned to zero changes after apply,
 * exported and planned back to zero; drawn in place in the navigation tree.
 */
function seed() {
  const s = baseSeed(4);
  (s.organizations as Record<string, unknown>[])[0]!.sites = [
    {
      id: 'site_1',
      title: 'Docs',
      sectionGroups: [{ id: 'sg_prod', title: 'Products' }],
      sections: [
        { id: 'sec_1', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_1' }] },
        { id: 'sec_2', title: 'API', path: 'api', siteSpaces: [{ space: 'space_2' }] },
        {
          id: 'sec_3',
          title: 'Apps',
          path: 'apps',
          sectionGroup: 'sg_prod',
          siteSpaces: [{ space: 'space_3' }],
        },
      ],
      externalLinks: [
        { id: 'sel_status', title: 'Status', url: 'https://status.example.com' },
        { id: 'sel_forum', title: 'Forum', url: 'https://forum.example.com' },
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
        spaces: [{ space: space_1 }]
      - path: api
        spaces: [{ space: space_2 }]
      - path: apps
        spaces: [{ space: space_3 }]
    sectionGroups:
      - title: Products
        sections: [apps]
    externalLinks:
      - title: Status
        url: https://status.example.com
        after: guides
      - title: Forum
        url: https://forum.example.com
        group: Products
      - title: Store
        url: https://store.example.com
        group: Products
        after: apps
      - title: Blog
        url: https://blog.example.com
        after: Status
`;

const desired = (text = CONFIG) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** The site's navigation as the structure answers it: section paths, link and group titles, nested. */
async function navigation(e: Emulator): Promise<unknown[]> {
  const res = await call(e, 'GET', '/orgs/org_t/sites/site_1/structure');
  const walk = (items: any[]): unknown[] =>
    items.map((x) =>
      x.object === 'site-section-group' ? { [x.title]: walk(x.children) } : (x.path ?? x.title),
    );
  return walk(res.body.structure);
}

describe('external links placed in groups and among sections (current flavor)', () => {
  it('plans the calls that put each link in place, applies them and plans again to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      expect(await navigation(emu)).toEqual(['guides', 'api', { Products: ['apps'] }, 'Status', 'Forum']);
      const { plan, live } = await makePlan(api, desired());
      expect(plan.errors).toEqual([]);
      expect(
        plan.changes.map(
          (c) =>
            `${c.action} ${c.address.replace('org_t/sites/Docs/external-links/', '')} ${JSON.stringify(c.after)}`,
        ),
      ).toEqual([
        'update Forum {"group":"Products"}',
        'create Store {"title":"Store","url":"https://store.example.com","group":"Products"}',
        'create Blog {"title":"Blog","url":"https://blog.example.com"}',
        'move Status {"after":"guides"}',
        'move Store {"after":"apps"}',
        'move Blog {"after":"Status"}',
      ]);
      const after = renderTreeText(
        structureTree(plan.organizations, live, plan.changes, { arrange: 'after' }),
        {
          marks: true,
        },
      );
      expect(after.split('\n').filter((l) => !l.includes('space_'))).toEqual([
        '  org_t',
        '    Docs (site)',
        '      Guides /guides',
        '↕     Status → https://status.example.com (external link)',
        '          after "guides"',
        '+     Blog → https://blog.example.com (external link)',
        '          title: "Blog"',
        '          url: "https://blog.example.com"',
        '          after "Status"',
        '      API /api',
        '      Products (group)',
        '        Apps /apps',
        '+       Store → https://store.example.com (external link)',
        '            title: "Store"',
        '            url: "https://store.example.com"',
        '            group: "Products"',
        '            after "apps"',
        '~       Forum → https://forum.example.com (external link)',
        '            group: null → "Products"',
      ]);

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      const created = emu.requests().find((r) => r.method === 'POST' && (r.body as any)?.title === 'Store')!;
      expect(created.body).toEqual({ title: 'Store', url: 'https://store.example.com', parent: 'sg_prod' });
      expect(await navigation(emu)).toEqual([
        'guides',
        'Status',
        'Blog',
        'api',
        { Products: ['apps', 'Store', 'Forum'] },
      ]);
      const again = (await makePlan(api, desired())).plan;
      expect(again.errors).toEqual([]);
      expect(again.changes).toEqual([]);

      // Moved back to the root, right after the group.
      const back = CONFIG.replace(
        '        group: Products\n      - title: Store',
        '        after: Products\n      - title: Store',
      );
      const { plan: moveBack } = await makePlan(api, desired(back));
      expect(
        moveBack.changes.map((c) => `${c.action} ${c.address.split('/').pop()} ${JSON.stringify(c.after)}`),
      ).toEqual(['update Forum {"group":null}', 'move Forum {"after":"Products"}']);
      expect((await applyPlan(moveBack, api)).ok).toBe(true);
      expect(await navigation(emu)).toEqual([
        'guides',
        'Status',
        'Blog',
        'api',
        { Products: ['apps', 'Store'] },
        'Forum',
      ]);
      expect((await makePlan(api, desired(back))).plan.changes).toEqual([]);

      // Status goes (pruned) and Blog follows guides: once Status is gone it does, with no sort call.
      const pruned = back
        .replace('organization: org_t\n', 'organization: org_t\npolicy:\n  prune: true\n')
        .replace(
          '      - title: Status\n        url: https://status.example.com\n        after: guides\n',
          '',
        )
        .replace('        after: Status', '        after: guides');
      const { plan: prune } = await makePlan(api, desired(pruned));
      expect(prune.errors).toEqual([]);
      expect(prune.changes.map((c) => `${c.action} ${c.address.split('/').pop()}`)).toEqual([
        'delete Status',
      ]);
      expect((await applyPlan(prune, api)).ok).toBe(true);
      expect((await navigation(emu)).slice(0, 3)).toEqual(['guides', 'Blog', 'api']);
      expect((await makePlan(api, desired(pruned))).plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('a section moved right after the anchor of a link takes the link along: the link is placed again, last', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      expect((await applyPlan((await makePlan(api, desired())).plan, api)).ok).toBe(true);
      // api moves right after guides, where Status is.
      const swapped = CONFIG.replace(
        '      - path: guides\n        spaces: [{ space: space_1 }]\n      - path: api\n        spaces: [{ space: space_2 }]',
        '      - path: api\n        spaces: [{ space: space_2 }]\n      - path: guides\n        spaces: [{ space: space_1 }]',
      );
      const { plan } = await makePlan(api, desired(swapped));
      expect(plan.errors).toEqual([]);
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect((await navigation(emu)).slice(0, 4)).toEqual(['api', 'guides', 'Status', 'Blog']);
      expect((await makePlan(api, desired(swapped))).plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('a link placed after a section the same plan creates and moves: placed once both are done', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const config = CONFIG.replace(
        '      - path: api\n',
        '      - path: news\n        spaces: [{ space: space_4 }]\n      - path: api\n',
      ).replace('        after: guides', '        after: news');
      const { plan } = await makePlan(api, desired(config));
      expect(plan.errors).toEqual([]);
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect((await navigation(emu)).slice(0, 5)).toEqual(['guides', 'news', 'Status', 'Blog', 'api']);
      expect((await makePlan(api, desired(config))).plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('exports where links are and plans the export to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      expect((await applyPlan((await makePlan(api, desired())).plan, api)).ok).toBe(true);
      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
      const site = result.files.find((f) => f.path.startsWith('sites/'))!.text;
      expect(site).toContain('after: guides');
      expect(site).toContain('group: Products');
      const out = mkdtempSync(join(tmpdir(), 'docsync-link-places-'));
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

  it('refuses an unknown group, an after of another level or itself, twice the same after and a circle, each located', async () => {
    const issues = async (text: string) =>
      (
        await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(text) }], {
          capabilities: capabilitiesOf('current'),
        })
      ).issues.map((i) => `${i.line}:${i.column} ${i.code} ${i.message}`);
    const wrong = CONFIG.replace(
      '        group: Products\n      - title: Store',
      '        group: Nowhere\n      - title: Store',
    )
      .replace('        after: apps', '        after: guides')
      .replace('        after: Status', '        after: Blog');
    expect(await issues(wrong)).toEqual([
      `20:16 unknown-reference no section group titled "Nowhere" in this site's sectionGroups`,
      `24:16 invalid-value "guides" is at the site's root, the link in "Products": after names an item of the link's level`,
      `27:16 invalid-value a link cannot be placed after itself`,
    ]);
    expect(await issues(CONFIG.replace('        after: Status', '        after: guides'))).toEqual([
      `27:16 invalid-value link "Status" is already placed right after "guides"`,
    ]);
    expect(await issues(CONFIG.replace('        after: guides', '        after: Blog'))).toEqual([
      `17:16 invalid-value links placed after one another in a circle (Status → Blog → Status)`,
      `27:16 invalid-value links placed after one another in a circle (Blog → Status → Blog)`,
    ]);
  });
});
