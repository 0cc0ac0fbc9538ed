import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/export.js';
import { commonDefaults } from '../../src/cli/context.js';
import { loadConfig, loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { TEST_PEM } from '../helpers/certificates.js';
import { runEntry } from '../helpers/cli.js';
import { baseSeed, client, TOKEN, withEmulator } from '../helpers/emulator.js';

/** Issue 26, finding 10: export writes names every file system (and git for Windows) can hold. */
let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** Windows device names (any case, any extension), trailing dots and spaces, 0–1 characters. */
const TITLES = [
  'con',
  'CON',
  'Con.',
  'aux.txt',
  'nul ',
  'COM1',
  'lpt9',
  'prn',
  'a',
  'A',
  'x',
  '',
  ' ',
  '.',
  'Docs',
];
const LABELS = ['con', 'NUL', 'b', 'Com9.pem'];

async function exportTo(e: Emulator): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'docsync-portable-'));
  // As the CLI runs it: the token set for the call only, its log and summary captured.
  const { code, stderr } = await runEntry(
    () =>
      exportCommand({
        ...commonDefaults(),
        apiUrl: e.url,
        apiFlavor: 'seed',
        org: 'org_t',
        out,
        force: false,
      }),
    { DOCSYNC_TOKEN: TOKEN },
  );
  expect(code, stderr).toBe(0);
  return out;
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function portable(name: string): boolean {
  return (
    !WINDOWS_RESERVED.test(name) &&
    !/[<>:"/\\|?*]/.test(name) &&
    ![...name].some((c) => c.charCodeAt(0) < 32) &&
    !/[. ]$/.test(name) &&
    name.length > 0 &&
    name.length <= 100
  );
}

describe('export writes portable file names and round-trips', () => {
  it('device names, trailing dots and spaces, case collisions and 0–1 character titles: export, then plan → zero changes', async () => {
    const seed = baseSeed(2);
    const org = (seed.organizations as Record<string, unknown>[])[0]!;
    org['sites'] = TITLES.map((title) => ({ title }));
    org['saml'] = LABELS.map((label) => ({ label, certificate: TEST_PEM.trim() }));
    // Titles of 0–1 characters in the other kinds too (made before, or elsewhere).
    org['teams'] = [{ title: '' }, { title: 't' }, { title: 'T' }];
    org['translations'] = [{ title: 'f' }];
    org['collections'] = [
      { id: 'col_1', title: '' },
      { id: 'col_2', title: 'c' },
    ];
    (org['spaces'] as Record<string, unknown>[])[0]!['title'] = 's';
    (org['sites'] as Record<string, unknown>[])[0]!['sections'] = [
      { title: 'g', path: 'g', siteSpaces: [{ space: 'space_1' }] },
      { title: '', path: 'h', siteSpaces: [{ space: 'space_2' }] },
    ];
    (org['sites'] as Record<string, unknown>[])[1]!['sectionGroups'] = [{ title: 'q' }];
    emu = await withEmulator({ seed });
    const out = await exportTo(emu);
    for (const folder of ['sites', 'certs']) {
      const names = readdirSync(join(out, folder));
      for (const name of names) expect(portable(name), `${folder}/${name}`).toBe(true);
      // No two names differ only by case (one file on Windows and macOS).
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    }
    expect(readdirSync(join(out, 'sites'))).toHaveLength(TITLES.length);
    expect(readdirSync(join(out, 'certs'))).toHaveLength(LABELS.length);
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
  });
  it('a title shorter than the API writes is still refused without a pinned id', () => {
    const text =
      'organization: org_t\nsites:\n  - title: a\nteams:\n  - title: ""\n  - { title: "", id: team_1 }\n';
    const { issues } = loadConfigFromBuffers([{ file: 'x.yaml', bytes: Buffer.from(text) }]);
    expect(issues.map((i) => `${i.line} ${i.code} ${i.path}`).sort()).toEqual([
      '3 too-short sites[0].title',
      '5 too-short teams[0].title',
    ]);
  });
});
