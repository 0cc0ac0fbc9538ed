import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderJson } from '../../src/plan/render-json.js';
import { checkSafety } from '../../src/plan/safety.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { renderTreeText } from '../../src/plan/render-tree.js';
import { structureTree } from '../../src/plan/structure-tree.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, call, client, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * Redirects (issue 30) against the emulator of today's API, over HTTP on port 0: a site's declared
 * redirects (single and bulk calls, the bulk limit), the redirects a plan adds when it renames a
 * published section (the old URL then resolves through GET …/redirect), the brokenLinks refusal of
 * a deleted published section, an export that plans back to zero changes, and the seed flavor's
 * refusal at validation.
 */

function seed(published = true, redirects: unknown[] = []) {
  const s = baseSeed(4);
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.sites = [
    {
      id: 'site_docs',
      title: 'Docs',
      published,
      sections: [
        {
          id: 'sec_guides',
          title: 'Guides',
          path: 'guides',
          siteSpaces: [{ id: 'ss_1', space: 'space_1', path: 'v1' }],
        },
        {
          id: 'sec_api',
          title: 'API',
          path: 'api',
          siteSpaces: [{ id: 'ss_2', space: 'space_2', path: 'latest' }],
        },
      ],
      redirects,
    },
  ];
  return s;
}

const site = (body: string, policy = '') => `organization: org_t
${policy}sites:
  - title: Docs
${body}`;

const SECTIONS = (guides = 'guides', api = true) => `    sections:
      - path: ${guides}
        title: Guides
        spaces:
          - space: space_1
            path: v1
${
  api
    ? `      - path: api
        title: API
        spaces:
          - space: space_2
            path: latest
`
    : ''
}`;

const desired = (text: string) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('a renamed published section keeps its links', () => {
  it('plans the redirects from the old path, applies them, and the old URL resolves to the new place', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan, live } = await makePlan(api, desired(site(SECTIONS('tutorials'))));
      expect(plan.errors).toEqual([]);
      expect(plan.refusals).toEqual([]);
      // The plan and the navigation tree show them.
      expect(renderText(plan)).toContain(
        'Redirects added so that published URLs keep working:\n  + site "Docs": /guides → /tutorials (section "guides" moves to /tutorials)',
      );
      const tree = renderTreeText(structureTree(plan.organizations, live, plan.changes), { marks: true });
      expect(tree).toContain('~   Docs (site)');
      expect(tree).toContain('redirect /guides: null → "/tutorials"');
      expect(renderMarkdown(plan)).toContain('`/guides` → `/tutorials`');
      expect(plan.redirects).toEqual([
        {
          organization: 'org_t',
          site: 'Docs',
          source: '/guides',
          destination: '/tutorials',
          reason: 'section "guides" moves to /tutorials',
        },
        {
          organization: 'org_t',
          site: 'Docs',
          source: '/guides/*',
          destination: '/tutorials',
          reason: 'section "guides" moves to /tutorials',
        },
      ]);
      // Not read (the config does not manage redirects): one bulk upsert, whatever is there.
      const bulk = plan.changes.find((c) => c.kind === 'site-redirect')!;
      expect(bulk).toMatchObject({
        action: 'update',
        address: 'org_t/sites/Docs/redirects',
        after: { '/guides': '/tutorials', '/guides/*': '/tutorials' },
        note: '1 bulk replace (2 changes: 2 to create, 0 to update)',
      });
      expect(renderText(plan)).toContain('1 bulk replace (2 changes');
      expect(JSON.parse(renderJson(plan)).redirects).toHaveLength(2);

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      // Two calls, independent of each other (the redirect names the section by id).
      expect(
        writes(emu)
          .map((w) => `${w.method} ${w.path} ${w.status}`)
          .sort(),
      ).toEqual([
        'PATCH /v1/orgs/org_t/sites/site_docs/sections/sec_guides 200',
        'PUT /v1/orgs/org_t/sites/site_docs/redirects 200',
      ]);
      const old = await call(emu, 'GET', '/orgs/org_t/sites/site_docs/redirect?source=/guides');
      expect(old.status).toBe(200);
      expect(old.body.target).toBe('https://docs.emulator.local/site_docs/tutorials');
      expect(old.body.redirect).toMatchObject({
        destination: { kind: 'site-section', siteSectionId: 'sec_guides' },
        permanent: true,
      });
      const page = await call(emu, 'GET', '/orgs/org_t/sites/site_docs/redirect?source=/guides/v1/setup');
      expect(page.body.target).toBe('https://docs.emulator.local/site_docs/tutorials/v1/setup');

      const again = (await makePlan(api, desired(site(SECTIONS('tutorials'))))).plan;
      expect(again.changes).toEqual([]);
      expect(again.redirects).toBeUndefined();
    } finally {
      await api.close();
    }
  });

  it("an entry's own brokenLinks wins over the policy: allow plans none, refuse refuses the rename", async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const entry = (policy: string) =>
        desired(
          site(
            SECTIONS('tutorials').replace(
              '        title: Guides\n',
              `        title: Guides\n        brokenLinks: ${policy}\n`,
            ),
          ),
        );
      const allowed = (await makePlan(api, entry('allow'))).plan;
      expect(allowed.redirects).toBeUndefined();
      expect(allowed.refusals).toEqual([]);
      const refused = (await makePlan(api, entry('refuse'))).plan;
      expect(refused.redirects).toBeUndefined();
      // Each URL it breaks is named: the section's and its site space's below it; the refusal names
      // the entry's own setting, located (not policy.brokenLinks, which is not set).
      const setting =
        "brokenLinks: refuse at org.yaml:7:9 (org_t/sites/Docs/sections/tutorials) refuses it: declare a redirect for it (sites[].redirects), or set that entry's brokenLinks to redirect or allow";
      expect(refused.refusals.map((r) => r.message)).toEqual([
        `org_t: the plan breaks the published URL /guides of site "Docs" (section "guides": moves to /tutorials and the entry's brokenLinks is refuse); ${setting}`,
        `org_t: the plan breaks the published URL /guides/v1 of site "Docs" (site space space_1: moves to /tutorials/v1 and the entry's brokenLinks is refuse); ${setting}`,
      ]);
      // A site space's own setting (its section keeps its path) is named at its own key.
      const own = (
        await makePlan(
          api,
          desired(
            site(
              SECTIONS().replace(
                '            path: v1\n',
                '            path: v2\n            brokenLinks: refuse\n',
              ),
            ),
          ),
        )
      ).plan;
      expect(own.refusals.map((r) => r.message)).toEqual([
        expect.stringContaining(
          'URL /guides/v1 of site "Docs" (site space space_1: moves to /guides/v2 and the entry\'s brokenLinks is refuse); brokenLinks: refuse at org.yaml:10:13 (org_t/sites/Docs/sections/guides/spaces/space_1) refuses it',
        ),
      ]);
    } finally {
      await api.close();
    }
  });

  it('an unpublished site has no links to keep: nothing is planned', async () => {
    emu = await withEmulator({ seed: seed(false), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired(site(SECTIONS('tutorials'))));
      expect(plan.redirects).toBeUndefined();
      expect(plan.changes.map((c) => c.kind)).toEqual(['site-section']);
    } finally {
      await api.close();
    }
  });
});

/** The seed with the API section a draft and the guides' site space hidden. */
function draftSeed() {
  const s = seed();
  const org = (s.organizations as { sites: { sections: Record<string, unknown>[] }[] }[])[0]!;
  const [guides, api] = org.sites[0]!.sections;
  (guides!.siteSpaces as Record<string, unknown>[])[0]!.hidden = true;
  api!.draft = true;
  return s;
}

describe('a draft has no published URL; a hidden site space has one', () => {
  it('deleting a draft section breaks no link, even under refuse', async () => {
    emu = await withEmulator({ seed: draftSeed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = site(SECTIONS('guides', false), 'policy:\n  prune: true\n  brokenLinks: refuse\n');
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      expect(plan.refusals).toEqual([]);
      expect(plan.redirects).toBeUndefined();
      expect(plan.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
        'delete org_t/sites/Docs/sections/api',
      ]);
    } finally {
      await api.close();
    }
  });

  it('moving a draft section plans no redirect; moving a hidden site space plans one', async () => {
    emu = await withEmulator({ seed: draftSeed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = site(SECTIONS().replace('path: v1', 'path: v2').replace('path: api', 'path: reference'));
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      expect(plan.refusals).toEqual([]);
      expect(plan.redirects!.map((r) => `${r.source} → ${r.destination}`)).toEqual([
        '/guides/v1 → /guides/v2',
        '/guides/v1/* → /guides/v2',
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('a plan that breaks a published URL', () => {
  const prune = 'policy:\n  prune: true\n';
  it('is refused by the brokenLinks guard, named and located by path; a fallback or allow lifts it', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired(site(SECTIONS('guides', false), prune)));
      expect(plan.refusals.map((r) => [r.guard, r.code, r.override])).toEqual([
        ['brokenLinks', 'broken-links', null],
        ['brokenLinks', 'broken-links', null],
      ]);
      expect(plan.refusals[0]!.message).toBe(
        'org_t: the plan breaks the published URL /api of site "Docs" (section "api": deleted, and no redirect or redirectFallback says where it goes); declare a redirect for it (sites[].redirects), set the site\'s redirectFallback, or policy.brokenLinks: allow',
      );
      expect(plan.refusals[1]!.message).toContain('/api/latest');
      // apply refuses by the same verdict (no flag overrides it).
      expect(checkSafety(plan, 100, 100).map((r) => r.guard)).toEqual(['brokenLinks', 'brokenLinks']);

      const withFallback = (
        await makePlan(
          api,
          desired(site(`    redirectFallback: /guides\n${SECTIONS('guides', false)}`, prune)),
        )
      ).plan;
      expect(withFallback.refusals).toEqual([]);
      expect(withFallback.redirects?.map((r) => `${r.source} → ${r.destination}`)).toEqual([
        '/api → /guides',
        '/api/* → /guides',
        '/api/latest → /guides',
        '/api/latest/* → /guides',
      ]);

      const allowed = (
        await makePlan(api, desired(site(SECTIONS('guides', false), `${prune}  brokenLinks: allow\n`)))
      ).plan;
      expect(allowed.refusals).toEqual([]);
      expect(allowed.redirects).toBeUndefined();
    } finally {
      await api.close();
    }
  });

  it('a declared redirect for the deleted path is enough', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = site(
        `    redirects:
      - { source: /api, destination: https://api.example.com }
      - { source: /api/latest, destination: /guides/v1 }
${SECTIONS('guides', false)}`,
        'policy:\n  prune: true\n',
      );
      const { plan } = await makePlan(api, desired(text));
      expect(plan.refusals).toEqual([]);
      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      const latest = await call(emu, 'GET', '/orgs/org_t/sites/site_docs/redirect?source=/api/latest');
      expect(latest.body.target).toBe('https://docs.emulator.local/site_docs/guides/v1');
    } finally {
      await api.close();
    }
  });
});

describe('declared redirects', () => {
  it('one change is one single call; several are one bulk call; export plans back to zero changes', async () => {
    emu = await withEmulator({
      seed: seed(true, [
        {
          id: 'redir_old',
          source: '/old',
          destination: { kind: 'external', url: 'https://old.example.com' },
        },
      ]),
      flavor: 'current',
    });
    const api = client(emu, { flavor: 'current' });
    try {
      const one = site(`    redirects:
      - { source: /old, destination: https://new.example.com }
${SECTIONS()}`);
      const first = (await makePlan(api, desired(one))).plan;
      expect(first.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
        'update site-redirect org_t/sites/Docs/redirects/old',
      ]);
      expect((await applyPlan(first, api)).ok).toBe(true);
      expect(writes(emu).map((w) => `${w.method} ${w.path}`)).toEqual([
        'PATCH /v1/orgs/org_t/sites/site_docs/redirects/redir_old',
      ]);

      const several = site(`    redirects:
      - { source: /old, destination: /api, permanent: true }
      - { source: /start, destination: /guides/v1 }
      - { source: /help/*, destination: https://help.example.com, captureWildcard: true }
${SECTIONS()}`);
      const second = (await makePlan(api, desired(several))).plan;
      expect(second.changes).toHaveLength(1);
      expect(second.changes[0]!.note).toBe('1 bulk replace (3 changes: 2 to create, 1 to update)');
      expect((await applyPlan(second, api)).ok).toBe(true);
      expect((await makePlan(api, desired(several))).plan.changes).toEqual([]);

      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const exported = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
      const out = mkdtempSync(join(tmpdir(), 'docsync-redirects-export-'));
      for (const f of exported.files) writeFileSync(join(out, f.path.replace(/\//g, '_')), f.text);
      expect(exported.files.map((f) => f.text).join('\n')).toContain('destination: /guides/v1');
      const loaded = await loadConfig(out);
      expect(loaded.issues).toEqual([]);
      const back = (await makePlan(api, loaded.desired!)).plan;
      expect(back.errors).toEqual([]);
      expect(back.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('the emulator refuses a bulk call of more than 500 redirects', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const redirects = Array.from({ length: 501 }, (_, i) => ({
      source: `/r${i}`,
      destination: { kind: 'external', url: 'https://example.com' },
    }));
    const res = await call(emu, 'PUT', '/orgs/org_t/sites/site_docs/redirects', { redirects });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('redirects: at most 500 redirects a call');
    const ok = await call(emu, 'PUT', '/orgs/org_t/sites/site_docs/redirects', {
      redirects: redirects.slice(0, 500),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.results).toHaveLength(500);
  });

  it('a loop between declared redirects is a located plan error', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = site(`    redirects:
      - { source: /a, destination: /b }
      - { source: /b, destination: /a }
${SECTIONS()}`);
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors.map((e) => [e.code, e.message])).toEqual([
        ['redirect-loop', 'site "Docs": redirect loop: /a → /b → /a'],
        ['redirect-loop', 'site "Docs": redirect loop: /b → /a → /b'],
      ]);
      expect(plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });
});

describe('the seed flavor', () => {
  it('refuses sites[].redirects at validation, at its key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-redirects-validate-'));
    writeFileSync(
      join(dir, 'org.yaml'),
      site(`    redirects:
      - { source: /old, destination: https://example.com }
`),
    );
    const seedRun = await runMain(['validate', '--config', dir], { DOCSYNC_API_FLAVOR: 'seed' });
    expect(seedRun.code).toBe(1);
    expect(seedRun.stderr).toMatch(/org\.yaml:4:5\b.*redirects \(sites\[\]\.redirects\) are not in this API/);
    const current = await runMain(['validate', '--config', dir], { DOCSYNC_API_FLAVOR: 'current' });
    expect(current.code, current.stderr).toBe(0);
  });
});

describe('--target and the redirects a plan adds', () => {
  it('keeps the redirects planned for a targeted section’s move, and drops the others', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const both = SECTIONS('tutorials').replace('path: api', 'path: reference');
      const full = await makePlan(api, desired(site(both)));
      expect(full.plan.redirects!.map((r) => r.source)).toEqual(['/guides', '/guides/*', '/api', '/api/*']);
      const { plan } = await makePlan(api, {
        ...desired(site(both)),
        targets: ['sites/Docs/sections/tutorials'],
      });
      expect(plan.errors).toEqual([]);
      expect(plan.refusals).toEqual([]);
      expect(plan.redirects!.map((r) => r.source)).toEqual(['/guides', '/guides/*']);
      expect(plan.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
        'update org_t/sites/Docs/sections/tutorials',
        'update org_t/sites/Docs/redirects',
      ]);
      expect(Object.keys(plan.changes[1]!.after!)).toEqual(['/guides', '/guides/*']);
      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      // The other section is left as it is, and so are its URLs.
      expect(emu.state().organizations[0]!.sites[0]!.sections.map((s) => s.path)).toEqual([
        'tutorials',
        'api',
      ]);
    } finally {
      await api.close();
    }
  });

  it('does not refuse a targeted plan for a link that only an untargeted deletion would break', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = site(SECTIONS('tutorials', false), 'policy: { prune: true }\n');
      const full = await makePlan(api, desired(text));
      expect(full.plan.refusals.map((r) => `${r.code} ${r.message}`)).toEqual([
        expect.stringMatching(/^broken-links .*URL \/api of site "Docs"/),
        expect.stringMatching(/^broken-links .*URL \/api\/latest of site "Docs"/),
      ]);
      const { plan } = await makePlan(api, { ...desired(text), targets: ['sites/Docs/sections/tutorials'] });
      expect(plan.errors).toEqual([]);
      expect(plan.refusals).toEqual([]);
      expect(plan.changes.some((c) => c.action === 'delete')).toBe(false);
      expect(plan.redirects!.map((r) => r.source)).toEqual(['/guides', '/guides/*']);
    } finally {
      await api.close();
    }
  });
});
