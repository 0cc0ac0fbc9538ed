import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, client, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

let emu: Emulator;
afterEach(async () => emu?.close());

function richSeed() {
  const seed = baseSeed(12);
  const o = (seed.organizations as any[])[0];
  seed.tokenUser = 'user_a';
  o.defaultContent = undefined;
  o.settings = { inviteLinks: true, ai: true };
  o.collections = [
    { id: 'col_1', title: 'Product', description: 'All product docs' },
    { id: 'col_2', title: 'APIs', parent: 'col_1' },
  ];
  o.spaces[0].parent = 'col_2';
  o.openapi = [{ slug: 'petstore', source: 'https://example.com/petstore.yaml' }];
  o.saml = [
    {
      label: 'Okta',
      entityID: 'http://okta/abc',
      ssoURL: 'https://okta.example/sso',
      certificate: '-----BEGIN CERTIFICATE-----\nMIIEXPORT\n-----END CERTIFICATE-----',
      defaultRole: 'read',
    },
  ];
  o.translations = [{ title: 'French' }];
  o.customFields = [
    { name: 'owner', type: 'text', title: 'Owner', description: 'Who owns it', placeholder: 'team' },
    { name: 'tier', type: 'select:single', options: ['gold', 'silver'] },
    { name: 'tags', type: 'tags' },
  ];
  o.spaces[0].customFields = { owner: 'docs', tier: 'gold', tags: ['a', 'b'] };
  o.teams = [
    { title: 'Writers', members: [{ user: 'user_a', role: 'owner' }, 'user_b'] },
    { title: 'Twins', members: [] },
    { title: 'Twins', members: ['user_c'] },
  ];
  o.sites = [
    {
      title: 'Developer Docs',
      visibility: 'unlisted',
      basename: 'docs',
      proxy: 'company.com/docs',
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
      shareLinks: [{ name: 'partner', active: false }, { name: 'preview' }],
      sectionGroups: [{ title: 'Products', icon: 'box' }, { title: 'Empty' }],
      sections: [
        {
          title: 'Guides',
          path: 'guides',
          icon: 'book',
          description: 'How-to',
          sectionGroup: 'Products',
          siteSpaces: [
            { space: 'space_1', path: 'v2' },
            { space: 'space_2', path: 'v1', default: true, condition: 'visitor.claims.beta' },
          ],
        },
        {
          title: 'API',
          path: 'api',
          condition: 'visitor.claims.dev',
          default: true,
          siteSpaces: [{ space: 'space_3' }],
        },
        {
          title: 'Changelog',
          path: 'changelog',
          sectionGroup: 'Products',
          siteSpaces: [{ space: 'space_4' }],
        },
      ],
    },
    {
      title: 'Handbook',
      siteSpaces: [
        { space: 'space_5', path: 'hb' },
        { space: 'space_6', default: true },
      ],
    },
    { title: 'Twin site' },
    { title: 'Twin site' },
  ];
  return seed;
}

describe('docsync export', () => {
  it('round-trips a richly seeded organization: export, validate, plan → zero changes, and writes nothing', async () => {
    emu = await withEmulator({ seed: richSeed() });
    const out = mkdtempSync(join(tmpdir(), 'docsync-export-'));
    const res = await runCli(['export', '--org', 'org_t', '--out', out], {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: TOKEN,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(writes(emu)).toEqual([]);
    const files = [
      ...readdirSync(out).filter((f) => f !== 'certs' || true),
      ...readdirSync(join(out, 'sites')).map((f) => `sites/${f}`),
    ].sort();
    expect(files).toEqual([
      'certs',
      'custom-fields.yaml',
      'organization.yaml',
      'saml.yaml',
      'sites',
      'sites/developer-docs.yaml',
      'sites/handbook.yaml',
      'sites/twin-site-2.yaml',
      'sites/twin-site.yaml',
      'spaces.yaml',
      'teams.yaml',
    ]);
    expect(readFileSync(join(out, 'certs/okta.pem'), 'utf8')).toContain('BEGIN CERTIFICATE');
    expect(readFileSync(join(out, 'saml.yaml'), 'utf8')).not.toContain('BEGIN CERTIFICATE');
    const site = readFileSync(join(out, 'sites/developer-docs.yaml'), 'utf8');
    expect(site.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*docsync\.schema\.json$/);
    expect(site).not.toMatch(/share=|https?:\/\//);
    const teams = readFileSync(join(out, 'teams.yaml'), 'utf8');
    expect(teams).toMatch(/title: Twins\n\s+id: /);
    const loaded = await loadConfig(out);
    expect(loaded.issues).toEqual([]);
    const api = client(emu);
    try {
      const { plan } = await makePlan(api, loaded.desired!);
      expect(plan.errors).toEqual([]);
      expect(plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
    expect(writes(emu)).toEqual([]);
  });
});
