import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { runMain } from '../helpers/cli.js';
import { baseSeed, client, TOKEN, withEmulator, writes } from '../helpers/emulator.js';

/**
 * `docsync export --api-flavor current` against the emulator in today's shapes: an organization
 * with today's translations exports (they are listed in a comment, not managed), and the output
 * plans to zero changes in the same flavor.
 */
function currentSeed() {
  const seed = baseSeed(6);
  const o = (seed.organizations as any[])[0];
  seed.tokenUser = 'user_a';
  o.settings = { inviteLinks: true };
  o.collections = [{ id: 'col_1', title: 'Product' }];
  o.spaces[0].parent = 'col_1';
  o.openapi = [{ slug: 'petstore', source: 'https://example.com/petstore.yaml' }];
  o.saml = [{ label: 'Okta', entityID: 'okta', ssoURL: 'https://okta.example/sso', defaultRole: 'read' }];
  o.translations = [
    { id: 'tr_fr', source: { space: 'space_1', language: 'en' }, language: 'fr' },
    { id: 'tr_de', source: { space: 'space_1', language: 'en' }, language: 'de' },
  ];
  o.teams = [{ title: 'Writers', members: [{ user: 'user_a', role: 'owner' }, 'user_b'] }];
  o.sites = [
    {
      title: 'Docs',
      visibility: 'unlisted',
      basename: 'docs',
      shareLinks: [{ name: 'preview' }],
      sectionGroups: [{ title: 'Products', icon: 'box' }],
      sections: [
        { title: 'Guides', path: 'guides', sectionGroup: 'Products', siteSpaces: [{ space: 'space_2' }] },
        { title: 'API', path: 'api', default: true, siteSpaces: [{ space: 'space_3' }] },
      ],
    },
  ];
  return seed;
}

let emu: Emulator;
beforeAll(async () => {
  emu = await withEmulator({ seed: currentSeed(), flavor: 'current' });
});
afterAll(async () => emu?.close());

describe('docsync export in the current flavor', () => {
  it('exports an organization with translations; the output plans to zero changes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docsync-export-current-'));
    const res = await runMain(['export', '--org', 'org_t', '--out', out, '--api-flavor', 'current'], {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: TOKEN,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain("2 translation(s) of today's API are not managed by docsync");
    const organization = readFileSync(join(out, 'organization.yaml'), 'utf8');
    expect(organization).toContain('#   tr_fr: space space_1 (en) → fr');
    expect(organization).not.toMatch(/^translations:/m);
    const loaded = await loadConfig(out);
    expect(loaded.issues).toEqual([]);
    const api = client(emu, { flavor: 'current' });
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
