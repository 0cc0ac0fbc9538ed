import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig, loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { EmuSite } from '../../src/emulator/state.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderJson } from '../../src/plan/render-json.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { fingerprint } from '../../src/secrets/credentials.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, client, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * A site's public face (issue 30) against the emulator of today's API, over HTTP: customization and
 * agent settings managed sparsely (only the keys the config gives; the plan shows changed key paths,
 * apply sends the live document with them set), visitor authentication (its private key never
 * leaves the process; a new key only on an explicit request), export round trips, and the seed
 * flavor's refusal at validation.
 */
const LIVE_KEY = 'va_live_private_key_4c1f9e27b3d8a6055e1c';
const CONFIG_KEY = 'va_config_private_key_0b7d3e91aa4c28f6d5e2';

function seed(face: Record<string, unknown> = {}) {
  const s = baseSeed(1);
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.sites = [
    {
      id: 'site_1',
      title: 'Docs',
      customization: { footer: { copyright: '© Live Inc' } },
      visitorAuth: { backend: 'custom', privateKey: LIVE_KEY },
      ...face,
    },
  ];
  return s;
}

const config = (site: string) => `organization: org_t\nsites:\n  - title: Docs\n${site}`;

const CUSTOMIZATION = `    customization:
      styling:
        primaryColor: { light: "#0055FF" }
      trademark: { enabled: false }
`;

const desired = (text: string, env: NodeJS.ProcessEnv = {}) => desiredFromYaml(text, env);

const siteOf = (emu: Emulator) => emu.state().organizations[0]!.sites[0] as EmuSite;

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function withApi<T>(
  face: Record<string, unknown>,
  run: (api: ReturnType<typeof client>) => Promise<T>,
) {
  emu = await withEmulator({ seed: seed(face), flavor: 'current' });
  const api = client(emu, { flavor: 'current' });
  try {
    return await run(api);
  } finally {
    await api.close();
  }
}

describe('customization, sparse (current flavor)', () => {
  it('plans the changed key paths only, applies the live document with them set (one PUT), then plans nothing', () =>
    withApi({}, async (api) => {
      const { plan } = await makePlan(api, desired(config(CUSTOMIZATION)));
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.address}`)).toEqual([
        'update site-customization org_t/sites/Docs/customization',
      ]);
      const [change] = plan.changes;
      expect(change!.before).toEqual({ 'styling.primaryColor.light': '#346DDB', 'trademark.enabled': true });
      expect(change!.after).toEqual({ 'styling.primaryColor.light': '#0055FF', 'trademark.enabled': false });
      const text = renderText(plan);
      expect(text).toContain('styling.primaryColor.light: "#346DDB" → "#0055FF"');
      expect(text).toContain('trademark.enabled: true → false');
      // The text shows changed keys, never the whole document.
      expect(text).not.toContain('codeTheme');

      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      expect(writes(emu!).map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual([
        'PUT /v1/orgs/org_t/sites/site_1/customization 200',
      ]);
      const doc = siteOf(emu!).customization!.document as Record<string, any>;
      expect(doc.styling.primaryColor).toEqual({ light: '#0055FF', dark: '#346DDB' });
      expect(doc.trademark).toEqual({ enabled: false });
      // Keys the config does not give stay as they were.
      expect(doc.footer).toEqual({ groups: [], copyright: '© Live Inc' });
      expect(doc.styling.theme).toBe('clean');

      const again = (await makePlan(api, desired(config(CUSTOMIZATION)))).plan;
      expect(again.changes).toEqual([]);
    }));

  it('a value the official document refuses is a located validation error', () => {
    const r = loadConfigFromBuffers([
      {
        file: 'org.yaml',
        bytes: Buffer.from(
          config('    customization:\n      styling:\n        primaryColor: { light: blue }\n'),
        ),
      },
    ]);
    expect(r.desired).toBeNull();
    expect(r.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.path}`)).toEqual([
      'org.yaml:6:32 sites[0].customization.styling.primaryColor.light',
    ]);
    expect(r.issues[0]!.message).toContain('must be a color such as #346DDB');
  });

  it('a site this plan creates: the defaults of a new site with the keys given, sent after its creation', () =>
    withApi({}, async (api) => {
      const text = `organization: org_t\nsites:\n  - title: Docs\n  - title: Handbook\n${CUSTOMIZATION}    visitorAuth: { logoutURL: "https://example.com/out" }\n`;
      const { plan } = await makePlan(api, desired(text));
      expect(plan.changes.map((c) => [c.action, c.address, c.before, c.after, c.dependsOn.length])).toEqual([
        ['create', 'org_t/sites/Handbook', null, { title: 'Handbook' }, 0],
        [
          'update',
          'org_t/sites/Handbook/customization',
          null,
          { 'styling.primaryColor.light': '#0055FF', 'trademark.enabled': false },
          1,
        ],
        ['update', 'org_t/sites/Handbook/visitor-auth', null, { logoutURL: 'https://example.com/out' }, 1],
      ]);
      expect((await applyPlan(plan, api)).ok).toBe(true);
      // Converged in one apply.
      expect((await makePlan(api, desired(text))).plan.changes).toEqual([]);
    }));
});

describe('agent settings, sparse (current flavor)', () => {
  const AGENT = '    agentSettings:\n      findings: { changeRequests: always }\n';
  it('plans the changed key, applies one PUT keeping the other settings, then plans nothing', () =>
    withApi({ agentSettings: { scans: { topics: 'never' } } }, async (api) => {
      const { plan } = await makePlan(api, desired(config(AGENT)));
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => [c.kind, c.address, c.before, c.after])).toEqual([
        [
          'site-agent-settings',
          'org_t/sites/Docs/agent-settings',
          { 'findings.changeRequests': 'auto-fixable' },
          { 'findings.changeRequests': 'always' },
        ],
      ]);
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect(writes(emu!).map((w) => `${w.method} ${w.path}`)).toEqual([
        'PUT /v1/orgs/org_t/sites/site_1/agent-settings',
      ]);
      expect(siteOf(emu!).agentSettings!.settings).toMatchObject({
        scans: { topics: 'never' },
        findings: { changeRequests: 'always' },
      });
      expect((await makePlan(api, desired(config(AGENT)))).plan.changes).toEqual([]);
    }));
});

describe('visitor authentication (current flavor)', () => {
  const env = { DOCSYNC_SECRET_VA_KEY: CONFIG_KEY };
  const VA = (extra = '') =>
    config(
      `    visitorAuth:\n      fallbackURL: https://example.com/login\n      privateKey: { env: DOCSYNC_SECRET_VA_KEY }\n${extra}`,
    );

  it('updates the settings given; a different live key is a warning by fingerprint, nothing is planned for it', () =>
    withApi({}, async (api) => {
      const { plan } = await makePlan(api, desired(VA(), env));
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => [c.kind, c.address, c.before, c.after])).toEqual([
        [
          'site-visitor-auth',
          'org_t/sites/Docs/visitor-auth',
          { fallbackURL: null },
          { fallbackURL: 'https://example.com/login' },
        ],
      ]);
      expect(plan.warnings.map((w) => w.message)).toEqual([
        `site "Docs": visitorAuth.privateKey (secret changed): the live key (${fingerprint(LIVE_KEY)}) is not the one the config reads (${fingerprint(CONFIG_KEY)}); the API cannot set a key: store the live key where the config reads it, or ask for a new one with "regenerate: ${fingerprint(LIVE_KEY)}"`,
      ]);
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect(writes(emu!).map((w) => `${w.method} ${w.path}`)).toEqual([
        'PATCH /v1/orgs/org_t/sites/site_1/publishing/auth',
      ]);
      expect(siteOf(emu!).publishingAuth).toMatchObject({
        fallbackURL: 'https://example.com/login',
        privateKey: LIVE_KEY,
      });
      // The key the config reads is the live one: no warning, no change.
      const same = await makePlan(api, desired(VA(), { DOCSYNC_SECRET_VA_KEY: LIVE_KEY }));
      expect(same.plan.changes).toEqual([]);
      expect(same.plan.warnings).toEqual([]);
    }));

  it('regenerates only on request, once: while the live key has the fingerprint the config names', () =>
    withApi(
      { visitorAuth: { backend: 'custom', privateKey: LIVE_KEY, fallbackURL: 'https://example.com/login' } },
      async (api) => {
        const text = VA(`      regenerate: "${fingerprint(LIVE_KEY)}"\n`);
        const { plan } = await makePlan(api, desired(text, env));
        expect(plan.changes.map((c) => [c.action, c.address, c.before, c.after])).toEqual([
          [
            'update',
            'org_t/sites/Docs/visitor-auth/private-key',
            { privateKey: fingerprint(LIVE_KEY) },
            { privateKey: '(regenerated)' },
          ],
        ]);
        // Asking for a new key explains the different one: no warning.
        expect(plan.warnings).toEqual([]);
        expect((await applyPlan(plan, api)).ok).toBe(true);
        expect(writes(emu!).map((w) => `${w.method} ${w.path}`)).toEqual([
          'POST /v1/orgs/org_t/sites/site_1/publishing/auth/regenerate',
        ]);
        const fresh = siteOf(emu!).publishingAuth!.privateKey;
        expect(fresh).not.toBe(LIVE_KEY);
        // The request named the old key: done once, never again.
        const next = (await makePlan(api, desired(text, { DOCSYNC_SECRET_VA_KEY: fresh }))).plan;
        expect(next.changes).toEqual([]);
        expect(next.warnings).toEqual([]);
        // Without the request, nothing regenerates.
        const none = (await makePlan(api, desired(VA(), { DOCSYNC_SECRET_VA_KEY: fresh }))).plan;
        expect(none.changes).toEqual([]);
      },
    ));

  it('the key read through env: is confined as decision 13 says', () => {
    const r = loadConfigFromBuffers(
      [
        {
          file: 'org.yaml',
          bytes: Buffer.from(config('    visitorAuth:\n      privateKey: { env: HOME }\n')),
        },
      ],
      { HOME: '/root' },
    );
    expect(r.desired).toBeNull();
    expect(r.issues.map((i) => `${i.code} ${i.file}:${i.line}:${i.column} ${i.path}`)).toEqual([
      'indirect-env-not-allowed org.yaml:5:21 sites[0].visitorAuth.privateKey',
    ]);
  });
});

describe('the expected key read from a file', () => {
  it('is compared by fingerprint; a file that holds anything but one key is a located error that never quotes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-siteface-keyfile-'));
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'va.key'), `${LIVE_KEY}\n`);
    writeFileSync(join(dir, 'bad.key'), 'two words\n');
    const text = (file: string) => config(`    visitorAuth:\n      privateKey: { file: ${file} }\n`);
    writeFileSync(join(dir, 'org.yaml'), text('va.key'));
    const good = await loadConfig(dir);
    expect(good.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(JSON.stringify(good.desired)).toContain(fingerprint(LIVE_KEY));
    expect(JSON.stringify(good.desired)).not.toContain(LIVE_KEY);
    writeFileSync(join(dir, 'org.yaml'), text('bad.key'));
    const bad = await loadConfig(dir);
    expect(
      bad.issues
        .filter((i) => i.severity === 'error')
        .map((i) => `${i.code} ${i.line}:${i.column} ${i.path}`),
    ).toEqual(['indirect-invalid-content 5:21 sites[0].visitorAuth.privateKey']);
    expect(JSON.stringify(bad.issues)).not.toContain('two words');
  });
});

describe('export round trips (current flavor)', () => {
  it('writes only what is not a new site’s default (never the key), and plans the export to zero changes', () =>
    withApi(
      {
        customization: {
          styling: { theme: 'bold', primaryColor: { light: '#0055FF' } },
          footer: { copyright: '© Live Inc' },
        },
        agentSettings: { scans: { topics: 'never' } },
        visitorAuth: { backend: 'custom', privateKey: LIVE_KEY, logoutURL: 'https://example.com/logout' },
      },
      async (api) => {
        const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
        const result = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities);
        const site = result.files.find((f) => f.path.startsWith('sites/'))!.text;
        expect(site).toContain(
          '    customization:\n      styling:\n        theme: bold\n        primaryColor:\n          light: "#0055FF"\n      footer:\n        copyright: © Live Inc\n',
        );
        expect(site).toContain('    agentSettings:\n      scans:\n        topics: never\n');
        expect(site).toContain('    visitorAuth:\n      logoutURL: https://example.com/logout\n');
        expect(site).not.toContain('codeTheme');
        for (const f of result.files) expect(f.text).not.toContain(LIVE_KEY);

        const out = mkdtempSync(join(tmpdir(), 'docsync-siteface-export-'));
        for (const f of result.files) writeFileSync(join(out, f.path.replace(/\//g, '_')), f.text);
        const loaded = await loadConfig(out);
        expect(loaded.issues).toEqual([]);
        const { plan } = await makePlan(api, loaded.desired!);
        expect(plan.errors).toEqual([]);
        expect(plan.changes).toEqual([]);
      },
    ));
});

describe('the seed flavor (api.md) has none of them', () => {
  it('validate refuses each at its key, and accepts them for today’s API', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-siteface-validate-'));
    writeFileSync(
      join(dir, 'org.yaml'),
      config(
        `${CUSTOMIZATION}    visitorAuth: { backend: custom }\n    agentSettings: { scans: { topics: never } }\n`,
      ),
    );
    const seedRun = await runMain(['validate', '--config', dir], { DOCSYNC_API_FLAVOR: 'seed' });
    expect(seedRun.code).toBe(1);
    expect(seedRun.stderr).toMatch(/org\.yaml:4:5\b.*sites\[\]\.customization is not in this API/);
    expect(seedRun.stderr).toMatch(/org\.yaml:8:5\b.*sites\[\]\.visitorAuth is not in this API/);
    expect(seedRun.stderr).toMatch(/org\.yaml:9:5\b.*sites\[\]\.agentSettings is not in this API/);
    const current = await runMain(['validate', '--config', dir], { DOCSYNC_API_FLAVOR: 'current' });
    expect(current.code, current.stderr).toBe(0);
  });
});

describe('the private key never leaves the process', () => {
  it('plan (text, markdown, JSON, plan file), apply, debug logs and export never hold the live or the configured key', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const dir = mkdtempSync(join(tmpdir(), 'docsync-siteface-secret-'));
    const configDir = join(dir, 'config');
    const out = join(dir, 'export');
    const planFile = join(dir, 'plan.json');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      join(configDir, 'org.yaml'),
      config(
        `${CUSTOMIZATION}    visitorAuth:\n      logoutURL: https://example.com/logout\n      privateKey: { env: DOCSYNC_SECRET_VA_KEY }\n      regenerate: "${fingerprint(LIVE_KEY)}"\n`,
      ),
    );
    const env = {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: TOKEN,
      DOCSYNC_API_FLAVOR: 'current',
      DOCSYNC_LOG_LEVEL: 'debug',
      DOCSYNC_SECRET_VA_KEY: CONFIG_KEY,
    };
    const runs = [
      await runMain(['plan', '--config', configDir, '--format', 'text'], env),
      await runMain(['plan', '--config', configDir, '--format', 'markdown'], env),
      await runMain(['plan', '--config', configDir, '--format', 'json', '--out', planFile], env),
      await runMain(['apply', '--config', configDir, '--yes'], env),
      await runMain(['plan', '--config', configDir, '--format', 'json'], env),
      await runMain(['drift', '--config', configDir], env),
      await runMain(['export', '--org', 'org_t', '--out', out], env),
    ];
    for (const r of runs.filter((_, i) => i !== 5)) expect(r.code, r.stderr).toBe(0);
    const fresh = siteOf(emu).publishingAuth!.privateKey;
    expect(fresh).not.toBe(LIVE_KEY);
    const texts = [
      ...runs.flatMap((r) => [r.stdout, r.stderr]),
      readFileSync(planFile, 'utf8'),
      ...readdirSync(out, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => readFileSync(join(out, f), 'utf8')),
    ];
    // What was planned is there, by fingerprint; the plan shows the secret changed without the secret.
    expect(runs[0]!.stdout).toContain(`privateKey: "${fingerprint(LIVE_KEY)}" → "(regenerated)"`);
    expect(runs[4]!.stdout).toContain('(secret changed)');
    for (const key of [LIVE_KEY, CONFIG_KEY, fresh])
      for (const text of texts) expect(text).not.toContain(key);
    // The in-process renderers agree.
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired(readFileSync(join(configDir, 'org.yaml'), 'utf8'), env));
      for (const text of [renderText(plan), renderMarkdown(plan), renderJson(plan)])
        for (const key of [LIVE_KEY, CONFIG_KEY, fresh]) expect(text).not.toContain(key);
    } finally {
      await api.close();
    }
  });
});
