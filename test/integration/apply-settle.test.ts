import { describe, expect, it as base } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { WriteGate } from '../../src/api/write-gate.js';
import { applyPlan, type ApplyOptions } from '../../src/apply/run.js';
import { SETTLE_MARGIN_MS, settleMs } from '../../src/apply/settle.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';

/**
 * Settling an ambiguous creation (issue 34): a creation whose request timed out may still land;
 * apply waits for it only as long as that request could still be acted on (its own deadline, which
 * the write gate may have cut, plus a margin), adopts it as soon as it appears, and stops waiting
 * at once when the gate closes or a stop begins. The client's own timeout here is 20 s: every
 * bound below is far below what waiting for it (the old behaviour: 21 s) would take.
 */
const desired = () => {
  const r = loadConfigFromBuffers([
    { file: 'org.yaml', bytes: Buffer.from('organization: org_t\nsites:\n  - title: Docs\n') },
  ]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
};

/**
 * Each test with its own emulator and client: the four wait on timers, not on the CPU, so they run
 * at once (`describe.concurrent`); each one's bounds are its own.
 */
const it = base.extend<{ emu: Emulator; api: ApiClient }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture uses from its first parameter
  emu: async ({}, use) => {
    const emu = await withEmulator({ seed: baseSeed(1) });
    await use(emu);
    await emu.close();
  },
  api: async ({ emu }, use) => {
    const api = client(emu, { concurrency: 2, timeoutMs: 20_000 });
    await use(api);
    await api.close();
  },
});

describe.concurrent('settling an ambiguous creation', () => {
  const sites = (emu: Emulator) => emu.state().organizations[0]!.sites;

  /** Apply the plan with each creation landing `latencyMs` after it arrived; how long apply took. */
  const applyWith = async (
    { emu, api }: { emu: Emulator; api: ApiClient },
    latencyMs: number,
    options: ApplyOptions,
  ) => {
    const { plan } = await makePlan(api, desired());
    expect(plan.changes.map((c) => c.action)).toEqual(['create']);
    emu.setFaults({ latencyMs, latencyMethods: ['POST'] });
    const t0 = performance.now();
    const result = await applyPlan(plan, api, options);
    return { result: result.results[0]!, elapsed: performance.now() - t0 };
  };

  it('waits as long as its own (gate-cut) deadline plus a margin, and adopts the creation once it landed', async ({
    emu,
    api,
    expect,
  }) => {
    // A lease renewed all along, with 600 ms left at any moment: each write gets a 600 ms deadline.
    const gate: WriteGate = { label: 'lease (test)', remainingMs: () => 600 };
    const { result, elapsed } = await applyWith({ emu, api }, 1200, { gateFor: () => gate });
    expect(result).toMatchObject({ status: 'applied', adopted: true });
    expect(elapsed).toBeLessThan(6000);
    expect(sites(emu)).toHaveLength(1);
  });

  it('stops waiting when the gate closes: the outcome is unknown, the next owner re-plans', async ({
    emu,
    api,
    expect,
  }) => {
    // The lease ends 500 ms after apply first asks (not after the plan, whose time varies with load).
    let closesAt: number | undefined;
    const gate: WriteGate = {
      label: 'lease ends (test)',
      remainingMs: () => (closesAt ??= performance.now() + 500) - performance.now(),
    };
    const { result, elapsed } = await applyWith({ emu, api }, 1500, { gateFor: () => gate });
    expect(result).toMatchObject({ status: 'failed', code: 'outcome-unknown' });
    expect(result.message).toMatch(/outcome is unknown.*lease ends \(test\)/);
    expect(elapsed).toBeLessThan(5000);
  });

  it('stops waiting when a graceful stop begins', async ({ emu, expect }) => {
    const api2 = client(emu, { timeoutMs: 500 });
    try {
      const { plan } = await makePlan(api2, desired());
      emu.setFaults({ latencyMs: 5000, latencyMethods: ['POST'] });
      let stop = false;
      setTimeout(() => (stop = true), 800);
      const t0 = performance.now();
      const result = (await applyPlan(plan, api2, { shouldStop: () => stop })).results[0]!;
      // Without the stop it would wait 1.5 s, send again, and so on: three attempts, about 6 s.
      expect(performance.now() - t0).toBeLessThan(3500);
      expect(result).toMatchObject({ status: 'failed', code: 'outcome-unknown' });
      expect(result.message).toMatch(/stopping/);
    } finally {
      await api2.close();
    }
  });
  it("an uncut timeout leaves only the margin to wait: the deadline counts from the request's start", async ({
    emu,
    expect,
  }) => {
    const api2 = client(emu, { timeoutMs: 2000 });
    try {
      emu.setFaults({ latencyMs: 5000, latencyMethods: ['POST'] });
      const error = await api2.http
        .send({
          method: 'POST',
          path: '/orgs/org_t/teams',
          route: '/orgs/{org}/teams',
          body: { title: 'T' },
          expect: [201],
          create: true,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('timeout');
      // The old wait was the whole 2 s timeout again plus the margin, counted from the timeout.
      const wait = settleMs(api2, error as ApiError);
      expect(wait).toBeGreaterThanOrEqual(SETTLE_MARGIN_MS);
      expect(wait).toBeLessThan(SETTLE_MARGIN_MS + 500);
    } finally {
      await api2.close();
    }
  });
});
