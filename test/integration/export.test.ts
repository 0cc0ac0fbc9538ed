import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { client, TOKEN, withEmulator, writes } from '../helpers/emulator.js';
import { richSeed } from '../helpers/rich-seed.js';
import { runMain } from '../helpers/cli.js';

let emu: Emulator;
afterEach(async () => emu?.close());

describe('docsync export', () => {
  it('round-trips a richly seeded organization: export, validate, plan → zero changes, and writes nothing', async () => {
    emu = await withEmulator({ seed: richSeed() });
    const out = mkdtempSync(join(tmpdir(), 'docsync-export-'));
    const res = await runMain(['export', '--org', 'org_t', '--out', out], {
      DOCSYNC_API_URL: emu.url,
      DOCSYNC_TOKEN: TOKEN,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(writes(emu)).toEqual([]);
    // Certificates come from the same read as the providers: one list read, not two.
    const samlReads = emu
      .requests()
      .filter((r) => r.method === 'GET' && /\/orgs\/org_t\/saml(\?|$)/.test(r.path));
    expect(samlReads).toHaveLength(1);
    const files = [
      ...readdirSync(out).filter((f) => f !== 'certs' || true),
      ...readdirSync(join(out, 'sites')).map((f) => `sites/${f}`),
    ].sort();
    expect(files).toEqual([
      'certs',
      'custom-fields.yaml',
      'docsync.schema.json',
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
