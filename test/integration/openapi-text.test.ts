import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfigFromBuffers, loadConfigFromBuffersAsync } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * An OpenAPI spec made from its text (issue 30, today's `source: { text }`): created and updated
 * with the text, compared with the raw text the API keeps, exported inline, refused by the seed flavor.
 */
function seed() {
  const s = baseSeed(1);
  (s.organizations as Record<string, unknown>[])[0]!.openapi = [
    { slug: 'petstore', source: 'https://example.com/petstore.yaml' },
  ];
  return s;
}

const config = (title: string) => `organization: org_t
openapi:
  - slug: petstore
    source: https://example.com/petstore.yaml
  - slug: inline
    source:
      text: |
        openapi: 3.1.0
        info: { title: ${title}, version: '1' }
`;

const desired = (text: string) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('OpenAPI spec from text (current flavor)', () => {
  it('creates and updates with the text, converges, shows a hash, exports and plans back to zero', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const first = await makePlan(api, desired(config('Inline')));
      expect(first.plan.errors).toEqual([]);
      expect(first.plan.changes.map((c) => [c.action, c.address])).toEqual([
        ['create', 'org_t/openapi/inline'],
      ]);
      expect(JSON.stringify(first.plan.changes[0]!.after)).toMatch(/^\{"source":"sha256:[0-9a-f]{12}"\}$/);
      expect((await applyPlan(first.plan, api)).ok).toBe(true);
      expect((await makePlan(api, desired(config('Inline')))).plan.changes).toEqual([]);

      const changed = await makePlan(api, desired(config('Inline v2')));
      expect(changed.plan.changes.map((c) => [c.action, c.address])).toEqual([
        ['update', 'org_t/openapi/inline'],
      ]);
      expect(changed.plan.changes[0]!.before).not.toEqual(changed.plan.changes[0]!.after);
      expect((await applyPlan(changed.plan, api)).ok).toBe(true);
      expect((await makePlan(api, desired(config('Inline v2')))).plan.changes).toEqual([]);
      expect(writes(emu).map((w) => `${w.method} ${w.path}`)).toEqual([
        'POST /v1/orgs/org_t/openapi',
        'PUT /v1/orgs/org_t/openapi/inline',
      ]);
      // The raw text is read for the spec made from text only, never for the one with a URL.
      const raw = emu.requests().filter((r) => r.path.endsWith('/content/raw'));
      expect(raw.length).toBeGreaterThan(0);
      expect(raw.every((r) => r.path.includes('/openapi/inline/'))).toBe(true);

      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const files = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities).files;
      const text = files.find((f) => f.path === 'organization.yaml')!.text;
      expect(text).toContain('Inline v2');
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

  it('the seed flavor refuses the text at validation, located', async () => {
    const r = await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(config('X')) }], {
      capabilities: capabilitiesOf('seed'),
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.path}`)).toEqual([
      'org.yaml:7:7 unsupported-by-api openapi[1].source.text',
    ]);
  });
});
