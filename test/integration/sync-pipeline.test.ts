import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import type { WriteGate } from '../../src/api/write-gate.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Holds } from '../../src/coord/types.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { runSync } from '../../src/pipeline/sync.js';
import { baseSeed, call, client, withEmulator } from '../helpers/emulator.js';

/** The one sync pipeline (src/pipeline/sync.ts): what self-heal and `apply --plan` rely on, and the write gate. */
const desiredOf = (visibility: string, links = 3): DesiredState => {
  const yaml = `organization: org_t
sites:
  - title: Docs
    visibility: ${visibility}
    shareLinks:
${Array.from({ length: links }, (_, i) => `      - { name: link-${i + 1}, active: true }`).join('\n')}
`;
  const r = loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(yaml) }]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
};

const holdWith =
  (gate?: WriteGate) =>
  async (orgs: string[]): Promise<Holds> => ({ orgs, gateFor: () => gate, release: async () => {} });

describe('the sync pipeline', () => {
  let emu: Emulator;
  let api: ApiClient;
  const writes = () =>
    emu.requests().filter((r) => r.method !== 'GET' && r.userAgent?.startsWith('docsync/'));

  beforeEach(async () => {
    emu = await withEmulator({ seed: baseSeed(2) });
    api = client(emu, { concurrency: 1, timeoutMs: 5000 });
  });
  afterEach(async () => {
    await api.close();
    await emu.close();
  });

  it('applies the plan a drift check made when live state did not move, and nothing when it moved', async () => {
    const desired = desiredOf('public');
    const checked = (await makePlan(api, desired)).plan;
    expect(checked.changes.length).toBeGreaterThan(1);
    // Someone creates the site meanwhile: the checked plan no longer holds.
    await call(emu, 'POST', '/orgs/org_t/sites', { title: 'Docs' });
    const moved = await runSync({
      api,
      desired,
      apply: true,
      allowDeletes: 0,
      hold: holdWith(),
      expectChecksum: checked.checksum,
    });
    expect(moved.result).toBe('moved');
    expect(writes()).toEqual([]);

    const again = (await makePlan(api, desired)).plan;
    const applied = await runSync({
      api,
      desired,
      apply: true,
      allowDeletes: 0,
      hold: holdWith(),
      expectChecksum: again.checksum,
    });
    expect(applied.result).toBe('applied');
    expect(writes()).toHaveLength(again.changes.length);
    expect((await makePlan(api, desired)).plan.changes).toEqual([]);
  });

  it('plans only the organizations held, and writes nothing when none is held', async () => {
    const outcome = await runSync({
      api,
      desired: desiredOf('public'),
      apply: true,
      allowDeletes: 0,
      hold: async () => ({ orgs: [], gateFor: () => undefined, release: async () => {} }),
    });
    expect(outcome.result).toBe('not-owned');
    expect(emu.requests()).toEqual([]);
  });

  it('a gate that closes stops the organization between calls: nothing is written after it closed', async () => {
    // The gate closes once the first write reached the platform (the in-process emulator logs it on arrival).
    const gate: WriteGate = {
      label: 'ownership lost (test)',
      remainingMs: () => (writes().length >= 1 ? 0 : 10_000),
    };
    const outcome = await runSync({
      api,
      desired: desiredOf('public', 4),
      apply: true,
      allowDeletes: 0,
      hold: holdWith(gate),
    });
    expect(outcome.result).toBe('failed');
    // The site creation went out; every share link (they depend on it) was held back by the gate.
    expect(writes()).toHaveLength(1);
    const rest = outcome.result === 'failed' && 'applied' in outcome ? outcome.applied!.results.slice(1) : [];
    expect(rest.length).toBe(4);
    for (const r of rest) {
      expect(r.status).not.toBe('applied');
      expect(r.message ?? r.code).toMatch(/ownership lost \(test\)|not-owner/);
    }
  });

  it("each write's deadline ends when the gate closes, not at the client's timeout", async () => {
    await runSync({ api, desired: desiredOf('public'), apply: true, allowDeletes: 0, hold: holdWith() });
    emu.setFaults({ latencyMs: 4000, latencyMethods: ['PATCH'] });
    const closesAt = performance.now() + 400;
    const gate: WriteGate = { label: 'lease ends (test)', remainingMs: () => closesAt - performance.now() };
    const t0 = performance.now();
    const outcome = await runSync({
      api,
      desired: desiredOf('unlisted'),
      apply: true,
      allowDeletes: 0,
      hold: holdWith(gate),
    });
    const elapsed = performance.now() - t0;
    expect(outcome.result).toBe('failed');
    const result = 'applied' in outcome ? outcome.applied!.results[0]! : undefined;
    // The attempt was cut at the gate; the retry was refused by the closed gate.
    expect(result).toMatchObject({ status: 'failed', code: 'not-owner' });
    expect(elapsed).toBeLessThan(3000);
  });
});
