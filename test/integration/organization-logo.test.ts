import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * The organization's logo (issue 30): `PATCH /orgs/{o}` takes `logo`, the answer gives it back as
 * `urls.logo`; a plan compares the two, so a second plan after apply is empty, and export writes it.
 */
const config = (logo: string) => `organization: org_t\nsettings:\n  logo: ${logo}\n`;

const desired = (text: string) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('organization logo', () => {
  for (const flavor of ['seed', 'current'] as const)
    it(`${flavor}: set, changed, removed, each in one PATCH; converges; export round-trips`, async () => {
      emu = await withEmulator({ seed: baseSeed(1), flavor });
      const api = client(emu, { flavor });
      try {
        const steps: [string, string | null, string | null][] = [
          ['https://example.com/logo.png', null, 'https://example.com/logo.png'],
          [
            'https://example.com/logo-v2.png',
            'https://example.com/logo.png',
            'https://example.com/logo-v2.png',
          ],
          ['null', 'https://example.com/logo-v2.png', null],
        ];
        for (const [value, before, after] of steps) {
          const { plan } = await makePlan(api, desired(config(value)));
          expect(plan.errors).toEqual([]);
          expect(plan.changes.map((c) => [c.action, c.address, c.before, c.after])).toEqual([
            ['update', 'org_t/settings', { logo: before }, { logo: after }],
          ]);
          expect((await applyPlan(plan, api)).ok).toBe(true);
          expect((await makePlan(api, desired(config(value)))).plan.changes).toEqual([]);
        }
        expect(writes(emu).map((w) => `${w.method} ${w.path}`)).toEqual(
          Array.from({ length: 3 }, () => 'PATCH /v1/orgs/org_t'),
        );
        // Export with a logo set, then plan the exported files: nothing to do.
        await applyPlan((await makePlan(api, desired(config('https://example.com/logo.png')))).plan, api);
        const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
        const files = exportOrganization(
          { ...live, spaces: [] },
          undefined,
          new Map(),
          api.capabilities,
        ).files;
        const text = files.find((f) => f.path === 'organization.yaml')!.text;
        expect(text).toContain('logo: https://example.com/logo.png');
        const r = loadConfigFromBuffers(
          files
            .filter((f) => f.path.endsWith('.yaml'))
            .map((f) => ({ file: f.path, bytes: Buffer.from(f.text) })),
        );
        expect(r.issues).toEqual([]);
        expect((await makePlan(api, r.desired!)).plan.changes).toEqual([]);
      } finally {
        await api.close();
      }
    });
});
