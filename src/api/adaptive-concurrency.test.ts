import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/server.js';
import { baseSeed, client, withEmulator } from '../../test/helpers/emulator.js';
import type { ApiClient } from './client.js';

let emu: Emulator;
let api: ApiClient;
afterEach(async () => {
  await api?.close();
  await emu?.close();
});

/** The most requests the server had in hand at once, from its log (arrival to answer sent). */
function peakInFlight(e: Emulator): number {
  const events = e
    .requests()
    .flatMap((r) => [
      [Date.parse(r.at), 1],
      [Date.parse(r.finishedAt!), -1],
    ])
    .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d!));
  return peak;
}

async function readMany(options: { concurrency: number; maxConcurrency?: number }): Promise<number> {
  // 200 requests a second (sliding, announced in RateLimit-Policy); every answer takes 40 ms ± 10.
  emu = await withEmulator({
    seed: baseSeed(),
    rateLimit: { limit: 200, windowSeconds: 1, model: 'sliding' },
  });
  emu.setFaults({
    latencyMs: 40,
    latencyJitterMs: 10,
    seed: 1,
    rateLimit: { limit: 200, windowSeconds: 1, model: 'sliding' },
  });
  api = client(emu, options);
  await Promise.all(
    Array.from({ length: 60 }, () =>
      api.http.send({ method: 'GET', path: '/orgs/org_t', route: '/orgs/{org}', expect: [200] }),
    ),
  );
  expect(emu.requests().filter((r) => r.status === 429)).toEqual([]);
  return peakInFlight(emu);
}

describe('adaptive concurrency', () => {
  it('grows past the starting concurrency to what the rate limit allows at the latency seen, up to the max', async () => {
    // 200/s × ~45 ms × 1.25 ≈ 12 in flight.
    const peak = await readMany({ concurrency: 2, maxConcurrency: 8 });
    expect(peak).toBeGreaterThan(2);
    expect(peak).toBeLessThanOrEqual(8);
  });

  it('stays at the concurrency given when no max above it is', async () => {
    expect(await readMany({ concurrency: 2 })).toBeLessThanOrEqual(2);
  });
});
