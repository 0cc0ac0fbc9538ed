import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { EmuSite } from '../../src/emulator/state.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderText } from '../../src/plan/render-text.js';
import { OVERRIDE_NULLABLE } from '../../src/kinds/site-customization.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';
import { checkRequest, officialDocument } from '../helpers/openapi.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * A site space's customization overrides (issue 30, decision 0037) against the emulator of today's
 * API, over HTTP: `customization:` on a site space entry, sparse (only the keys given are compared
 * and written; the plan shows changed key paths; one PATCH of those keys), read with one GET per site
 * space whose entry gives it, set after a site space the plan creates, export round trips, and the
 * seed flavor's refusal at validation.
 */
function seed(spaces: Record<string, unknown>[]) {
  const s = baseSeed(3);
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.sites = [
    {
      id: 'site_1',
      title: 'Docs',
      customization: { styling: { theme: 'muted' } },
      sections: [{ id: 'sec_1', title: 'Guides', path: 'guides', siteSpaces: spaces }],
    },
  ];
  return s;
}

const config = (spaces: string) =>
  `organization: org_t\nsites:\n  - title: Docs\n    sections:\n      - path: guides\n        title: Guides\n        spaces:\n${spaces}`;

const desired = (text: string) => desiredFromYaml(text);

const siteOf = (emu: Emulator) => emu.state().organizations[0]!.sites[0] as EmuSite;
const overridesOf = (emu: Emulator, space: string) =>
  siteOf(emu).siteSpaces.find((ss) => ss.spaceId === space)?.customization;

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function withApi<T>(
  spaces: Record<string, unknown>[],
  run: (api: ReturnType<typeof client>) => Promise<T>,
) {
  emu = await withEmulator({ seed: seed(spaces), flavor: 'current' });
  const api = client(emu, { flavor: 'current' });
  try {
    return await run(api);
  } finally {
    await api.close();
  }
}

const customizationReads = (e: Emulator) =>
  e.requests().filter((r) => r.method === 'GET' && /site-spaces\/[^/]+\/customization/.test(r.path));

describe("a site space's customization overrides (current flavor)", () => {
  it('plans the changed key paths, PATCHes those keys only, reads only the site spaces that give them, then plans nothing', () =>
    withApi(
      [
        { id: 'ss_1', space: 'space_1', path: 'v1' },
        { id: 'ss_2', space: 'space_2', path: 'v2', customization: { title: 'Old' } },
      ],
      async (api) => {
        const text = config(
          `          - space: space_1\n            path: v1\n          - space: space_2\n            path: v2\n            customization:\n              styling: { primaryColor: { light: "#0055FF" } }\n              title: Old\n`,
        );
        const before = customizationReads(emu!).length;
        const { plan } = await makePlan(api, desired(text));
        expect(plan.errors).toEqual([]);
        // One GET for the site space whose entry gives customization, none for the other.
        expect(
          customizationReads(emu!)
            .slice(before)
            .map((r) => r.path),
        ).toEqual(['/v1/orgs/org_t/sites/site_1/site-spaces/ss_2/customization']);
        expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
          'update site-space org_t/sites/Docs/sections/guides/spaces/space_2/customization',
        ]);
        expect(plan.changes[0]!.before).toEqual({ 'styling.primaryColor.light': '#346DDB' });
        expect(plan.changes[0]!.after).toEqual({ 'styling.primaryColor.light': '#0055FF' });
        expect(renderText(plan)).toContain('styling.primaryColor.light: "#346DDB" → "#0055FF"');

        const result = await applyPlan(plan, api);
        expect(result.ok, JSON.stringify(result.results)).toBe(true);
        const w = emu!.requests().filter((r) => r.method !== 'GET');
        expect(w.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
          'PATCH /v1/orgs/org_t/sites/site_1/site-spaces/ss_2/customization 200',
        ]);
        // The PATCH takes a themed color whole (light and dark): the other half is what it shows now.
        expect(w[0]!.body).toEqual({ styling: { primaryColor: { light: '#0055FF', dark: '#346DDB' } } });
        expect(checkRequest('PATCH', w[0]!.path.replace(/^\/v1/, ''), w[0]!.body)).toEqual([]);
        // The override is added; the other override and the site's document stay.
        expect(overridesOf(emu!, 'space_2')).toEqual({
          title: 'Old',
          styling: { primaryColor: { light: '#0055FF', dark: '#346DDB' } },
        });
        expect(overridesOf(emu!, 'space_1')).toBeUndefined();
        expect((siteOf(emu!).customization!.document as Record<string, any>).styling.primaryColor.light).toBe(
          '#346DDB',
        );

        expect((await makePlan(api, desired(text))).plan.changes).toEqual([]);
      },
    ));

  it('a site space the plan creates gets its overrides after its creation, in one apply', () =>
    withApi([{ id: 'ss_1', space: 'space_1', path: 'v1' }], async (api) => {
      const text = config(
        `          - space: space_1\n            path: v1\n          - space: space_3\n            path: v3\n            customization:\n              trademark: { enabled: false }\n              styling: { primaryColor: { dark: "#111111" } }\n`,
      );
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
        'create site-space org_t/sites/Docs/sections/guides/spaces/space_3',
        'update site-space org_t/sites/Docs/sections/guides/spaces/space_3',
        'update site-space org_t/sites/Docs/sections/guides/spaces/space_3/customization',
      ]);
      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      const w = writes(emu!).map((x) => `${x.method} ${x.path.replace(/sitesp_\w+/, 'NEW')}`);
      expect(w.indexOf('POST /v1/orgs/org_t/sites/site_1/site-spaces')).toBeLessThan(
        w.indexOf('PATCH /v1/orgs/org_t/sites/site_1/site-spaces/NEW/customization'),
      );
      // A new site space shows the site's document: the themed color's other half comes from it.
      const patch = emu!.requests().find((r) => r.method === 'PATCH' && r.path.endsWith('/customization'))!;
      expect(patch.body).toEqual({
        trademark: { enabled: false },
        styling: { primaryColor: { light: '#346DDB', dark: '#111111' } },
      });
      expect(checkRequest('PATCH', patch.path.replace(/^\/v1/, ''), patch.body)).toEqual([]);
      expect(overridesOf(emu!, 'space_3')).toEqual({
        trademark: { enabled: false },
        styling: { primaryColor: { light: '#346DDB', dark: '#111111' } },
      });
      expect((await makePlan(api, desired(text))).plan.changes).toEqual([]);
    }));

  it('export writes only the overrides present, and plans nothing against them', () =>
    withApi(
      [
        { id: 'ss_1', space: 'space_1', path: 'v1' },
        { id: 'ss_2', space: 'space_2', path: 'v2', customization: { styling: { theme: 'bold' } } },
      ],
      async (api) => {
        const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
        const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
        const site = result.files.find((f) => f.path.startsWith('sites/'))!.text;
        expect(site).toContain(
          'path: v2\n            customization:\n              styling:\n                theme: bold\n',
        );
        // The site space without overrides exports none; the site's document is the site's.
        expect(site.match(/customization:/g)).toHaveLength(2);
        expect(site).toContain('    customization:\n      styling:\n        theme: muted\n');

        const out = mkdtempSync(join(tmpdir(), 'docsync-sscustom-export-'));
        for (const f of result.files) writeFileSync(join(out, f.path.replace(/\//g, '_')), f.text);
        const loaded = await loadConfig(out);
        expect(loaded.issues).toEqual([]);
        const { plan } = await makePlan(api, loaded.desired!);
        expect(plan.errors).toEqual([]);
        expect(plan.changes).toEqual([]);
      },
    ));
});

describe("removing a site space's overrides (current flavor)", () => {
  const live = [
    { id: 'ss_1', space: 'space_1', path: 'v1' },
    { id: 'ss_2', space: 'space_2', path: 'v2', customization: { title: 'Old', styling: { theme: 'bold' } } },
  ];

  it('`customization: null` plans one deletion of the overrides present, DELETEs them, then plans nothing', () =>
    withApi(live, async (api) => {
      const text = config(
        `          - space: space_1\n            path: v1\n            customization: null\n          - space: space_2\n            path: v2\n            customization: null\n`,
      );
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      // space_1 has none: nothing planned for it.
      expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
        'delete site-space org_t/sites/Docs/sections/guides/spaces/space_2/customization',
      ]);
      expect(plan.changes[0]!.before).toEqual({ title: 'Old', 'styling.theme': 'bold' });
      expect(renderText(plan)).toContain(
        "- site-space org_t/sites/Docs/sections/guides/spaces/space_2/customization (c1)\n    # removes its overrides (styling.theme, title): the site's customization applies",
      );
      // Counted as a deletion, like every `-` of a plan (summary and guards).
      expect(plan.summary.delete).toBe(1);
      expect(plan.guards[0]!.deletes).toBe(1);

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      expect(writes(emu!).map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
        'DELETE /v1/orgs/org_t/sites/site_1/site-spaces/ss_2/customization 205',
      ]);
      expect(overridesOf(emu!, 'space_2')).toBeUndefined();
      expect((await makePlan(api, desired(text))).plan.changes).toEqual([]);
    }));

  it('`policy.maxDeletes: 0` refuses it like any other deletion', () =>
    withApi(live, async (api) => {
      const text = `${config(`          - space: space_2\n            path: v2\n            customization: null\n`)}policy: { maxDeletes: 0 }\n`;
      const { plan } = await makePlan(api, desired(text));
      expect(plan.refusals.map((r) => r.code)).toEqual(['too-many-deletes']);
    }));

  it('a key given as null resets that override (PATCH with null), and only where live differs from the site', () =>
    withApi(live, async (api) => {
      // styling.primaryColor has no override (the site's value): nothing to do for it.
      const text = config(
        `          - space: space_2\n            path: v2\n            customization:\n              title: null\n              styling: { theme: null, primaryColor: null }\n`,
      );
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
        'update site-space org_t/sites/Docs/sections/guides/spaces/space_2/customization',
      ]);
      expect(plan.changes[0]!.before).toEqual({ title: 'Old', 'styling.theme': 'bold' });
      expect(plan.changes[0]!.after).toEqual({ title: null, 'styling.theme': null });

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      const w = emu!.requests().filter((r) => r.method !== 'GET');
      expect(w.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
        'PATCH /v1/orgs/org_t/sites/site_1/site-spaces/ss_2/customization 200',
      ]);
      expect(w[0]!.body).toEqual({ title: null, styling: { theme: null } });
      expect(checkRequest('PATCH', w[0]!.path.replace(/^\/v1/, ''), w[0]!.body)).toEqual([]);
      expect(overridesOf(emu!, 'space_2')).toEqual({});
      expect((await makePlan(api, desired(text))).plan.changes).toEqual([]);
    }));
});

/** The keys whose override the official PATCH body resets by null (`oneOf: [..., { type: null }]`). */
function officialNullable(): string[] {
  const route = '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization';
  const body = (officialDocument.paths as any)[route].patch.requestBody.content['application/json'].schema;
  const out: string[] = [];
  const walk = (schema: any, prefix: string) => {
    for (const [key, v] of Object.entries<any>(schema.properties ?? {})) {
      const takesNull =
        (v.oneOf ?? []).some((x: any) => x.type === 'null') ||
        (Array.isArray(v.type) && v.type.includes('null'));
      if (takesNull) out.push(`${prefix}${key}`);
      else if (v.properties) walk(v, `${prefix}${key}.`);
    }
  };
  walk(body, '');
  return out.sort();
}

it('the keys a config may reset by null are those the official PATCH takes null for', () => {
  expect([...OVERRIDE_NULLABLE].sort()).toEqual(officialNullable());
});

it('null is refused where the official PATCH does not take it (a whole `styling`), at its line and column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-sscustom-validate-'));
  writeFileSync(
    join(dir, 'org.yaml'),
    config(`          - space: space_1\n            customization:\n              styling: null\n`),
  );
  const current = await loadConfig(dir, dir, { capabilities: capabilitiesOf('current') });
  expect(current.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.path}`)).toEqual([
    'org.yaml:10:24 sites[0].sections[0].spaces[0].customization.styling',
  ]);
});

describe('the seed flavor (api.md) has no overrides', () => {
  it('validation refuses `customization: null` on a site space at its key too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-sscustom-validate-'));
    writeFileSync(
      join(dir, 'org.yaml'),
      config(`          - space: space_1\n            customization: null\n`),
    );
    const seed = await loadConfig(dir, dir, { capabilities: capabilitiesOf('seed') });
    expect(seed.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.message}`)).toEqual([
      expect.stringMatching(/^org\.yaml:9:13 unsupported-by-api customization is not in this API/),
    ]);
    const current = await loadConfig(dir, dir, { capabilities: capabilitiesOf('current') });
    expect(current.issues).toEqual([]);
  });

  it('validation refuses `customization` on a site space at its key, and accepts it for today’s API', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-sscustom-validate-'));
    writeFileSync(
      join(dir, 'org.yaml'),
      config(`          - space: space_1\n            customization: { trademark: { enabled: false } }\n`),
    );
    const seed = await loadConfig(dir, dir, { capabilities: capabilitiesOf('seed') });
    expect(seed.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.message}`)).toEqual([
      expect.stringMatching(/^org\.yaml:9:13 unsupported-by-api customization is not in this API/),
    ]);
    const current = await loadConfig(dir, dir, { capabilities: capabilitiesOf('current') });
    expect(current.issues).toEqual([]);
  });
});
