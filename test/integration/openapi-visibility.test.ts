import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfigFromBuffersAsync } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * An OpenAPI spec's visibility (issue 30, today's `PATCH /orgs/{o}/openapi/{slug}`): planned as one
 * update, set right after a creation, exported, and refused at validation for the seed flavor.
 */
function seed() {
  const s = baseSeed(1);
  (s.organizations as Record<string, unknown>[])[0]!.openapi = [
    { slug: 'petstore', source: 'https://example.com/petstore.yaml' },
  ];
  return s;
}

const CONFIG = `organization: org_t
openapi:
  - slug: petstore
    source: https://example.com/petstore.yaml
    visibility: public
  - slug: billing
    source: https://example.com/billing.yaml
    visibility: public
`;

const desired = (text = CONFIG) => desiredFromYaml(text);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('OpenAPI spec visibility (current flavor)', () => {
  it('plans one update (and one after a creation), applies, plans again to zero, exports it', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const { plan } = await makePlan(api, desired());
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((c) => [c.action, c.address, c.before, c.after])).toEqual([
        ['update', 'org_t/openapi/petstore', { visibility: 'private' }, { visibility: 'public' }],
        ['create', 'org_t/openapi/billing', null, { source: 'https://example.com/billing.yaml' }],
        ['update', 'org_t/openapi/billing', null, { visibility: 'public' }],
      ]);
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect(
        writes(emu)
          .map((w) => `${w.method} ${w.path}`)
          .sort(),
      ).toEqual([
        'PATCH /v1/orgs/org_t/openapi/billing',
        'PATCH /v1/orgs/org_t/openapi/petstore',
        'POST /v1/orgs/org_t/openapi',
      ]);
      expect((await makePlan(api, desired())).plan.changes).toEqual([]);
      const live = await readScoped(api, 'org_t', everything(), { secrets: new Map() });
      const files = exportOrganization({ ...live, spaces: [] }, undefined, new Map(), api.capabilities).files;
      expect(files.find((f) => f.path === 'organization.yaml')!.text).toContain('visibility: public');
    } finally {
      await api.close();
    }
  });

  it('the seed flavor refuses the key at validation', async () => {
    const r = await loadConfigFromBuffersAsync([{ file: 'org.yaml', bytes: Buffer.from(CONFIG) }], {
      capabilities: capabilitiesOf('seed'),
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.path}`)).toEqual([
      'org.yaml:5:5 unsupported-by-api openapi[0].visibility',
      'org.yaml:8:5 unsupported-by-api openapi[1].visibility',
    ]);
  });
});
