import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig, loadConfigFromBuffers, loadConfigFromBuffersAsync } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderTreeText } from '../../src/plan/render-tree.js';
import { structureTree } from '../../src/plan/structure-tree.js';
import { baseSeed, call, client, withEmulator } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * Nested section groups (issue 30, today's API): a group's `parent` is read from the live groups,
 * created with `parent`, moved between groups with `parentSectionGroupId` (parents first), a
 * parent deleted after what it holds; exported and planned back to zero changes; refused at
 * validation for the seed flavor and when the parent is unknown or a cycle.
 */
function seed() {
  const s = baseSeed(4);
  (s.organizations as Record<string, unknown>[])[0]!.sites = [
    {
      id: 'site_1',
      title: 'Docs',
      sectionGroups: [
        { id: 'sg_prod', title: 'Products' },
        { id: 'sg_legacy', title: 'Legacy', parent: 'sg_prod' },
        { id: 'sg_gone', title: 'Gone' },
        { id: 'sg_gone_child', title: 'Gone child', parent: 'sg_gone' },
      ],
      sections: [
        {
          id: 'sec_1',
          title: 'Guides',
          path: 'guides',
          sectionGroup: 'sg_prod',
          siteSpaces: [{ space: 'space_1' }],
        },
        { id: 'sec_2', title: 'API', path: 'api', siteSpaces: [{ space: 'space_2' }] },
        {
          id: 'sec_3',
          title: 'FAQ',
          path: 'faq',
          sectionGroup: 'sg_legacy',
          siteSpaces: [{ space: 'space_3' }],
        },
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
      - path: api
        spaces: [{ space: space_2 }]
      - path: faq
        spaces: [{ space: space_3 }]
    sectionGroups:
      - title: Deep
        parent: Reference
      - title: Products
        sections: [guides]
      - title: Reference
        parent: Products
        sections: [api]
      - title: Legacy
        parent: null
        sections: [faq]
`;

const desired = (text = CONFIG) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** The site's navigation as the structure answers it: titles (paths for sections), nested. */
async function navigation(e: Emulator): Promise<unknown[]> {
  const res = await call(e, 'GET', '/orgs/org_t/sites/site_1/structure');
  const walk = (items: any[]): unknown[] =>
    items.map((x) =>
      x.object === 'site-section-group' ? { [x.title]: walk(x.children) } : (x.path ?? x.title),
    );
  return walk(res.body.structure);
}

describe('nested section groups against the emulator (current flavor)', () => {
  it('creates groups in their parent (parents first), moves one to the root, deletes a parent after its child, and plans again to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan, live } = await makePlan(api, desired());
      expect(plan.errors).toEqual([]);
      const lines = plan.changes.map((c) => `${c.action} ${c.address.replace('org_t/sites/Docs/', '')}`);
      expect(lines.indexOf('create section-groups/Reference')).toBeLessThan(
        lines.indexOf('create section-groups/Deep'),
      );
      expect(lines.indexOf('delete section-groups/Gone child')).toBeLessThan(
        lines.indexOf('delete section-groups/Gone'),
      );
      const reference = plan.changes.find((c) => c.address.endsWith('section-groups/Reference'))!;
      expect(reference.after).toMatchObject({ parent: 'Products', sections: ['api'] });
      const legacy = plan.changes.find((c) => c.address.endsWith('section-groups/Legacy'))!;
      expect([legacy.action, legacy.before, legacy.after]).toEqual([
        'update',
        { parent: 'Products' },
        { parent: null },
      ]);
      // The navigation tree nests groups, now and after the plan.
      expect(renderTreeText(structureTree(plan.organizations, live, []))).toContain(
        [
          '      Products (group)',
          '        Guides /guides',
          '          space_1 /space-1',
          '        Legacy (group)',
          '          FAQ /faq',
          '            space_3 /space-3',
        ].join('\n'),
      );
      const after = renderTreeText(
        structureTree(plan.organizations, live, plan.changes, { arrange: 'after' }),
        {
          marks: true,
        },
      );
      for (const line of [
        '      Products (group)',
        '+       Reference (group)',
        '+         Deep (group)',
        '~     Legacy (group)',
      ])
        expect(after).toContain(line);

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      const posts = emu.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/section-groups'));
      expect(posts.map((r) => (r.body as any).title)).toEqual(['Reference', 'Deep']);
      expect((posts[0]!.body as any).parent).toBe('sg_prod');
      expect(await navigation(emu)).toEqual([
        { Products: ['guides', { Reference: ['api', { Deep: [] }] }] },
        { Legacy: ['faq'] },
      ]);

      const again = (await makePlan(api, desired())).plan;
      expect(again.errors).toEqual([]);
      expect(again.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('moves a group into another and orders groups among their siblings', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const config = CONFIG.replace(
        '      - title: Legacy\n        parent: null',
        '      - title: Legacy\n        parent: Products',
      ).replace(
        '      - title: Products\n        sections: [guides]\n      - title: Reference\n        parent: Products\n        sections: [api]',
        '      - title: Products\n        sections: [guides]\n      - title: Gone\n        parent: Products\n      - title: Reference\n        parent: Products\n        sections: [api]',
      );
      const { plan } = await makePlan(api, desired(config));
      expect(plan.errors).toEqual([]);
      expect(plan.changes.find((c) => c.address.endsWith('section-groups/Gone'))).toMatchObject({
        action: 'update',
        after: { parent: 'Products' },
      });
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect(await navigation(emu)).toEqual([
        { Products: ['guides', { Gone: [] }, { Reference: ['api', { Deep: [] }] }, { Legacy: ['faq'] }] },
      ]);
      const again = (await makePlan(api, desired(config))).plan;
      expect(again.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('exports nested groups and plans the export to zero changes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      expect((await applyPlan((await makePlan(api, desired())).plan, api)).ok).toBe(true);
      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
      const site = result.files.find((f) => f.path.startsWith('sites/'))!.text;
      expect(site).toContain('parent: Reference');
      expect(site).toContain('parent: Products');
      const out = mkdtempSync(join(tmpdir(), 'docsync-nesting-export-'));
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

describe('nested section groups at validation', () => {
  const issues = async (text: string, flavor: 'seed' | 'current' = 'current') =>
    (
      await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(text) }], {
        capabilities: capabilitiesOf(flavor),
      })
    ).issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.message}`);

  it('the seed flavor refuses parent, at its key', async () => {
    expect(await issues(CONFIG, 'seed')).toEqual([
      'org.yaml:15:9 unsupported-by-api parent is not in this API (api.md has none); remove it or use --api-flavor current',
      expect.stringMatching(/^org\.yaml:19:9 unsupported-by-api /),
      expect.stringMatching(/^org\.yaml:22:9 unsupported-by-api /),
    ]);
  });

  it('an unknown parent and a cycle are located errors', async () => {
    const text = CONFIG.replace('parent: Reference', 'parent: Nowhere')
      .replace(
        '      - title: Products\n        sections: [guides]',
        '      - title: Products\n        parent: Legacy\n        sections: [guides]',
      )
      .replace('parent: null', 'parent: Reference');
    expect(await issues(text)).toEqual([
      'org.yaml:15:17 unknown-reference no section group titled "Nowhere" in this site',
      'org.yaml:17:17 unknown-reference a section group cannot be nested in itself (Products → Legacy → Reference → Products)',
      'org.yaml:20:17 unknown-reference a section group cannot be nested in itself (Reference → Products → Legacy → Reference)',
      'org.yaml:23:17 unknown-reference a section group cannot be nested in itself (Legacy → Reference → Products → Legacy)',
    ]);
  });
});

describe('nested section groups at validation, either loader', () => {
  it('the synchronous loader refuses parent in the seed flavor as the asynchronous one does', async () => {
    const opts = { capabilities: capabilitiesOf('seed') };
    const entries = [{ file: 'org.yaml', bytes: Buffer.from(CONFIG) }];
    const shown = (r: { issues: { line: number; column: number; code: string }[] }) =>
      r.issues.map((i) => `${i.line}:${i.column} ${i.code}`);
    const sync = shown(loadConfigFromBuffers(entries, process.env, opts));
    expect(sync).toContain('15:9 unsupported-by-api');
    expect(sync).toEqual(shown(await loadConfigFromBuffersAsync(entries, opts)));
  });
});
