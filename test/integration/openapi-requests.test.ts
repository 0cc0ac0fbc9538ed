import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { caseFlavor, caseInputs, cases, planCase } from '../helpers/golden.js';
import { client, withEmulator, writes } from '../helpers/emulator.js';
import { checkRequest } from '../helpers/openapi.js';

/**
 * Conformance with today's service: every request docsync sends while applying the golden cases
 * with --api-flavor current must match an operation of the official OpenAPI document
 * (@gitbook/api) and validate against its request body schema and path parameter patterns.
 */
describe('requests of the current flavor against the official OpenAPI document', () => {
  it('every request docsync sends while applying the golden cases validates', async () => {
    // Query strings are checked too: a limit the document does not allow, or a parameter it does not have.
    expect(checkRequest('GET', '/v1/orgs/org_t/teams?limit=5000', undefined)).toEqual([
      'GET /orgs/{organizationId}/teams: limit=5000: data must be <= 1000',
    ]);
    expect(checkRequest('GET', '/v1/orgs/org_t/teams?pageSize=10', undefined)).toEqual([
      'GET /orgs/{organizationId}/teams: the operation has no query parameter "pageSize"',
    ]);
    let checked = 0;
    let withQuery = 0;
    let goldenLive = 0;
    const ran: string[] = [];
    for (const name of cases) {
      // The case's config and seed; its plan is made here, through HTTP. A case of the current
      // flavor is also golden-live.test.ts's, checked here (its golden plan, no write to plan, one
      // write per change) instead of being planned and applied a second time there.
      const planned = caseFlavor(name) === 'current' ? await planCase(name) : undefined;
      const expected = planned?.plan;
      const golden = planned ?? caseInputs(name);
      for (const [k, v] of Object.entries(golden.env)) process.env[k] = v;
      const emu = await withEmulator({ seed: golden.seed, flavor: 'current' });
      const api = client(emu, { flavor: 'current' });
      try {
        const { plan } = await makePlan(api, golden.desired);
        if (expected) {
          goldenLive += 1;
          expect(plan.checksum, `${name}: the HTTP read gives the golden plan`).toBe(expected.checksum);
          expect(writes(emu), name).toHaveLength(0);
        }
        if (plan.errors.length > 0 || plan.changes.length === 0) continue;
        ran.push(name);
        const result = await applyPlan(plan, api);
        expect(
          result.results.filter((r) => r.status !== 'applied'),
          name,
        ).toEqual([]);
        if (expected) expect(writes(emu), `${name}: one write per change`).toHaveLength(plan.changes.length);
        expect((await makePlan(api, golden.desired)).plan.changes, `${name}: converged`).toEqual([]);
        for (const r of emu.requests()) {
          checked += 1;
          if (r.query) withQuery += 1;
          expect(checkRequest(r.method, r.path + r.query, r.body), `${name}`).toEqual([]);
        }
      } finally {
        await api.close();
        await emu.close();
      }
    }
    expect(ran.length).toBeGreaterThanOrEqual(20);
    expect(goldenLive).toBeGreaterThanOrEqual(10);
    expect(checked).toBeGreaterThan(50);
    expect(withQuery).toBeGreaterThan(20);
  }, 120_000);
});
