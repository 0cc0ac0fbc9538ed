import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isChainPath, traceChain } from '../../bench/chain-steps.js';
import { ApiClient } from '../../src/api/client.js';
import { listAll } from '../../src/api/paginate.js';
import type { Emulator } from '../../src/emulator/server.js';
import { TOKEN, withEmulator } from '../helpers/emulator.js';

let emu: Emulator | undefined;
let api: ApiClient | undefined;
afterEach(async () => {
  await api?.close();
  await emu?.close();
});

describe('bench/chain-steps.ts (the latency trace’s chain of teams pages)', () => {
  it('traces each page of the chain once, each step once, on the client as it queues requests today', async () => {
    // 2,500 teams: three pages of the teams list (1,000 a page), one after the other.
    const teams = Array.from({ length: 2_500 }, (_, i) => ({ title: `Team ${i}` }));
    emu = await withEmulator({ seed: { organizations: [{ id: 'org_t', title: 'T', teams }] } });
    api = new ApiClient({ apiUrl: emu.url, token: TOKEN, concurrency: 4 });
    // The pacer as bench/latency-trace.ts wraps it before the trace wraps it again: each slot is
    // still taken once (the wrappers call through), and each recorder sees it once.
    const budget = api.http.budget;
    const acquire = budget.acquire.bind(budget);
    let taken = 0;
    budget.acquire = (waiting?: number) => {
      const wait = acquire(waiting);
      if (wait <= 0) taken += 1;
      return wait;
    };
    const steps = traceChain(api, performance.now());
    const items = await listAll(api.http, '/orgs/org_t/teams', '/orgs/{org}/teams', z.looseObject({}));
    expect(items).toHaveLength(2_500);
    const chain = emu.requests().filter((r) => isChainPath(r.path));
    expect(chain).toHaveLength(3);
    // One slot per request sent: a second wrapper neither takes nor counts one more.
    expect(taken).toBe(emu.requests().length);
    expect(steps).toHaveLength(3);
    for (const step of steps) {
      const { queued, dequeued, dispatched, written, heard, complete, shapeStart, shapeEnd } = step;
      const order = [queued, dequeued, dispatched, written, heard, complete, shapeStart, shapeEnd];
      expect(order.every((t) => typeof t === 'number')).toBe(true);
      expect([...(order as number[])].sort((a, b) => a - b)).toEqual(order);
      expect(step.slot).toBeLessThanOrEqual(dequeued!);
    }
  });
});
