import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/export.js';
import { commonDefaults } from '../../src/cli/context.js';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, call, client, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { runEntry, runMain } from '../helpers/cli.js';
import { richSeed } from '../helpers/rich-seed.js';

/**
 * Issue 16, point 5: export then plan gives zero changes for states made outside docsync
 * (seeded, or through the API by hand), in both flavors; the `$schema` line resolves.
 */
let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

function handMadeSeed() {
  const seed = baseSeed(6);
  const o = (seed.organizations as any[])[0];
  o.spaces[0].title = 'X';
  // Duplicates (two writers, or made by hand) are exported pinned by id.
  o.translations = [{ title: 'French' }, { title: 'German' }, { title: 'German' }];
  o.saml = [{ label: 'Okta' }, { label: 'Okta', entityID: 'http://okta/2' }];
  o.sites = [
    {
      title: 'Docs',
      shareLinks: [{ name: 'partner', active: false }, { name: 'partner' }],
      sectionGroups: [{ title: 'Products' }, { title: 'Products', icon: 'box' }],
      sections: [
        { title: 'Guides', path: 'guides', sectionGroup: 'Products', siteSpaces: [{ space: 'space_2' }] },
      ],
    },
  ];
  return seed;
}

async function exportTo(e: Emulator, flavor: 'seed' | 'current', force = false): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'docsync-rt-'));
  // As the CLI runs it: the token set for the call only, its log and summary captured.
  const { code, stderr } = await runEntry(
    () => exportCommand({ ...commonDefaults(), apiUrl: e.url, apiFlavor: flavor, org: 'org_t', out, force }),
    { DOCSYNC_TOKEN: TOKEN },
  );
  expect(code, stderr).toBe(0);
  return out;
}

function yamlFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? yamlFiles(dir, join(prefix, d.name))
      : d.name.endsWith('.yaml')
        ? [join(prefix, d.name)]
        : [],
  );
}

describe('export round trip of a state made outside docsync', () => {
  for (const flavor of ['seed', 'current'] as const)
    it(`export, validate, plan → zero changes (${flavor})`, async () => {
      emu = await withEmulator({ seed: handMadeSeed(), flavor });
      const site = emu.state().organizations[0]!.sites[0]!;
      // By hand through the API: a section created without a title, from a space titled "X".
      const made = await call(emu, 'POST', `/orgs/org_t/sites/${site.id}/sections`, { spaceId: 'space_1' });
      expect(made.status).toBe(201);
      expect(made.body.title).toBe('X');
      // Share links without a name (the API allows it), twice.
      for (let i = 0; i < 2; i += 1)
        expect(
          (await call(emu, 'POST', `/orgs/org_t/sites/${site.id}/share-links`, { name: '' })).status,
        ).toBe(201);
      const before = writes(emu).length;
      const out = await exportTo(emu, flavor);
      expect(writes(emu).length).toBe(before);
      for (const file of yamlFiles(out)) {
        const first = readFileSync(join(out, file), 'utf8').split('\n')[0]!;
        const schema = /\$schema=(\S+)$/.exec(first)?.[1];
        expect(schema, file).toBeDefined();
        // The schema lands with the files: it resolves wherever the folder is moved or checked out.
        const resolved = join(out, dirname(file), schema!);
        expect(resolved.startsWith(`${out}/`), `${file}: ${schema}`).toBe(true);
        expect(existsSync(resolved), `${file}: ${schema}`).toBe(true);
      }
      const loaded = await loadConfig(out);
      expect(loaded.issues).toEqual([]);
      const api = client(emu, { flavor });
      try {
        const { plan } = await makePlan(api, loaded.desired!);
        expect(plan.errors).toEqual([]);
        expect(plan.changes).toEqual([]);
      } finally {
        await api.close();
      }
      expect(writes(emu).length).toBe(before);
    });

  it('a richly seeded organization round-trips with --api-flavor current too', async () => {
    emu = await withEmulator({ seed: richSeed(), flavor: 'current' });
    const out = await exportTo(emu, 'current');
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
  });

  it('refuses a non-empty folder unless --force', async () => {
    emu = await withEmulator({ seed: handMadeSeed() });
    const out = mkdtempSync(join(tmpdir(), 'docsync-rt-'));
    writeFileSync(join(out, 'keep.yaml'), 'organization: org_other\n');
    const env = { DOCSYNC_API_URL: emu.url, DOCSYNC_TOKEN: TOKEN };
    const refused = await runMain(['export', '--org', 'org_t', '--out', out], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not empty.*--force/);
    expect(readdirSync(out)).toEqual(['keep.yaml']);
    const forced = await runMain(['export', '--org', 'org_t', '--out', out, '--force'], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(out)).toContain('teams.yaml');
  });
});
