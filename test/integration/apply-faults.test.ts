import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/run.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import type { Plan } from '../../src/plan/types.js';
import { client, withEmulator } from '../helpers/emulator.js';
import { deletedIds, duplicates, plannedDeletions } from '../helpers/invariants.js';
import { randomDesired, randomLiveSeed, rng } from '../helpers/random-state.js';

/** Apply until converged (at most `rounds` runs); returns the plans that were applied. */
async function converge(
  emu: Emulator,
  desired: DesiredState,
  rounds = 4,
  timeoutMs?: number,
): Promise<Plan[]> {
  const api = client(emu, { ...(timeoutMs ? { timeoutMs } : {}), maxAttempts: 6 });
  const plans: Plan[] = [];
  try {
    for (let i = 0; i < rounds; i += 1) {
      const { plan } = await makePlan(api, desired);
      if (plan.changes.length === 0) return plans;
      plans.push(plan);
      await applyPlan(plan, api);
    }
    throw new Error(`not converged after ${rounds} applies`);
  } finally {
    await api.close();
  }
}

type FaultCase = [string, Record<string, unknown>, { rounds: number; timeoutMs?: number; stormMs?: number }];
const writesOnly = ['POST', 'PUT', 'PATCH', 'DELETE'];
const faultCases: FaultCase[] = [
  [
    '20 % 500/502/503 on writes',
    { rate: 0.2, statuses: [500, 502, 503], methods: writesOnly },
    { rounds: 3 },
  ],
  [
    'connection resets on writes',
    { rate: 0.2, resetConnections: true, statuses: [503], methods: writesOnly },
    { rounds: 3 },
  ],
  [
    '2 s latency against a 1 s timeout',
    { latencyMs: 2000, latencyRate: 0.1 },
    { rounds: 1, timeoutMs: 1000 },
  ],
  [
    'a 429 storm with a 5-second reset',
    { rate: 1, statuses: [429], retryAfterSeconds: 5 },
    { rounds: 1, stormMs: 1500 },
  ],
  ['a tight rate limit', { rateLimit: { limit: 16, windowSeconds: 1 } }, { rounds: 2 }],
  [
    'everything mixed',
    {
      rate: 0.15,
      resetConnections: true,
      statuses: [500, 503, 429],
      latencyMs: 2000,
      latencyRate: 0.05,
      rateLimit: { limit: 15, windowSeconds: 1 },
    },
    { rounds: 1, timeoutMs: 1000 },
  ],
];

describe('apply under faults', () => {
  it.concurrent.each(faultCases)(
    '%s: converges with no duplicates and no unplanned deletion',
    async (_name, faults, how) => {
      const random = rng(7);
      for (let round = 0; round < how.rounds; round += 1) {
        const desired = { organizations: [randomDesired(random)] };
        const emu = await withEmulator({ seed: randomLiveSeed(random) });
        try {
          emu.setFaults({ ...faults, seed: 100 + round });
          let stormRequests = 0;
          if (how.stormMs)
            setTimeout(() => ((stormRequests = emu.requests().length), emu.setFaults({})), how.stormMs);
          const plans = await converge(emu, desired, 4, how.timeoutMs);
          if (how.stormMs) expect(stormRequests, 'requests sent into the 429 storm').toBeLessThanOrEqual(8);
          emu.setFaults({});
          const api = client(emu);
          const { plan } = await makePlan(api, desired);
          await api.close();
          expect(plan.changes).toEqual([]);
          expect(duplicates(emu.state())).toEqual([]);
          const allowed = plannedDeletions(...plans);
          for (const id of deletedIds(emu.requests()))
            expect(allowed.has(id), `unplanned deletion of ${id}`).toBe(true);
        } finally {
          await emu.close();
        }
      }
    },
    120_000,
  );

  it('a failed change skips its dependents while independent changes go on; the next apply finishes', async () => {
    const emu = await withEmulator({ seed: randomLiveSeed(rng(1)) });
    const desired: DesiredState = {
      organizations: [
        {
          id: 'org_t',
          policy: { prune: false, maxDeletes: 10 },
          teams: [{ title: 'Writers', members: [{ user: 'user_a', role: 'owner' }] }],
          sites: [
            {
              title: 'Brand new',
              sections: [
                { path: 'a', title: 'Section A', spaces: [{ space: 'space_1' }, { space: 'space_2' }] },
              ],
            },
          ],
        },
      ],
    };
    const api = client(emu);
    try {
      const { plan } = await makePlan(api, desired);
      emu.setFaults({ rate: 1, statuses: [400], methods: ['POST'] });
      const result = await applyPlan(plan, api);
      const byKind = (kind: string) => result.results.filter((r) => r.kind === kind);
      expect(byKind('site')[0]).toMatchObject({
        action: 'create',
        status: 'failed',
        message: 'Injected fault 400',
      });
      expect(byKind('site-section').every((r) => r.status === 'skipped')).toBe(true);
      expect(byKind('site-space').every((r) => r.status === 'skipped')).toBe(true);
      expect(result.ok).toBe(false);
      emu.setFaults({});
      const next = await makePlan(api, desired);
      expect(next.plan.changes.some((c) => c.kind === 'site' && c.action === 'create')).toBe(true);
      const second = await applyPlan(next.plan, api);
      expect(second.ok).toBe(true);
      expect((await makePlan(api, desired)).plan.changes).toEqual([]);
    } finally {
      await api.close();
      await emu.close();
    }
  });
});
