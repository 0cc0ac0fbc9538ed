import { describe, expect, it } from 'vitest';
import { RateBudget } from './rate-limit.js';

const headers = (limit: number, remaining: number, resetEpochSeconds: number) => ({
  'x-ratelimit-limit': String(limit),
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(resetEpochSeconds),
});

describe('RateBudget', () => {
  it('goes while there is budget, counting requests in flight as spent', () => {
    let now = 1_800_000_000_000;
    const b = new RateBudget(() => now);
    expect(b.acquire()).toBe(0);
    b.release(headers(10, 3, now / 1000 + 10));
    expect([b.acquire(), b.acquire(), b.acquire()]).toEqual([0, 0, 0]);
    // three in flight, budget 3: the fourth waits for the reset
    expect(b.acquire()).toBe(10_000);
    now += 10_000;
    expect(b.acquire()).toBe(0);
  });
  it('after a 429 waits for Retry-After, then goes again without waiting for a far reset', () => {
    let now = 1_800_000_100_000;
    const b = new RateBudget(() => now);
    expect(b.acquire()).toBe(0);
    b.release(headers(100_000, 99_999, now / 1000 + 60));
    expect(b.pause(5)).toBe(5000);
    expect(b.acquire()).toBe(5000);
    now += 5000;
    expect(b.acquire()).toBe(0);
  });
  it('accepts Reset as seconds from now as well as epoch seconds', () => {
    const now = 3_000_000;
    const b = new RateBudget(() => now);
    b.acquire();
    b.release(headers(5, 0, 7));
    expect(b.acquire()).toBe(7000);
  });
});
