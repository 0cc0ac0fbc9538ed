import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import type { Emulator } from '../../src/emulator/server.js';
import { checkSafety } from '../../src/plan/safety.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { caseFlavor, cases, planCase } from '../helpers/golden.js';
import { client, withEmulator, writes } from '../helpers/emulator.js';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/**
 * The cases of the current flavor are planned, applied and planned again against the emulator by
 * openapi-requests.test.ts, with these same checks (and every request checked against the official
 * document): the same work is not done twice.
 */
const seedFlavorCases = cases.filter((name) => caseFlavor(name) !== 'current');

describe('golden cases against the emulator', () => {
  it('the current-flavor cases are the ones openapi-requests.test.ts checks', () => {
    expect(cases.length - seedFlavorCases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(seedFlavorCases)(
    '%s: the HTTP read gives the golden plan; apply makes one write per change; then no changes',
    async (name) => {
      const golden = await planCase(name);
      emu = await withEmulator({ seed: golden.seed, flavor: golden.flavor });
      const api = client(emu, { flavor: golden.flavor });
      for (const [k, v] of Object.entries(golden.env)) process.env[k] = v;
      try {
        const { plan } = await makePlan(api, golden.desired);
        expect(plan.checksum).toBe(golden.plan.checksum);
        expect(writes(emu)).toHaveLength(0);
        if (plan.errors.length > 0 || checkSafety(plan).length > 0) return;
        emu.requests().length = 0;
        const result = await applyPlan(plan, api);
        expect(result.results.filter((r) => r.status !== 'applied')).toEqual([]);
        expect(writes(emu)).toHaveLength(plan.changes.length);
        const again = await makePlan(api, golden.desired);
        expect(again.plan.changes).toEqual([]);
      } finally {
        await api.close();
      }
    },
  );
});
