import { describe, expect, it } from 'vitest';
import { ShortestRecent } from './shortest-recent.js';

/** Attempts of 80–120 ms (the API), in a fixed pseudo-random order. */
const api = (n: number) => Array.from({ length: n }, (_, i) => 80 + ((i * 37) % 41));

describe('ShortestRecent (the latency adaptive concurrency sizes from)', () => {
  it('is the API latency, not the time answers waited for a busy client', () => {
    const r = new ShortestRecent();
    for (const ms of api(400)) r.observe(ms);
    // Two seconds of the client being busy (600 answers): each attempt seems 0.5–1.5 s long.
    let last = 0;
    for (let i = 0; i < 600; i += 1) last = r.observe(500 + (i % 1000));
    // A smoothed mean would be near 1 s by now, and 600/s × 1 s × 2 = 1,200 requests in flight.
    expect(last).toBe(80);
  });

  it('follows an API that became slower, within epochs × epoch answers', () => {
    const r = new ShortestRecent(200, 8);
    for (const ms of api(400)) r.observe(ms);
    let last = 0;
    for (const ms of api(2000)) last = r.observe(ms + 400);
    expect(last).toBe(480);
  });

  it('is the shortest of the current epoch and the kept ones, as it was with every epoch looked at again', () => {
    const r = new ShortestRecent(5, 3);
    const kept: number[] = [];
    let current = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 60; i += 1) {
      const ms = 50 + ((i * 53) % 97) - (i === 31 ? 45 : 0);
      current = Math.min(current, ms);
      if ((i + 1) % 5 === 0) {
        kept.push(current);
        if (kept.length > 3) kept.shift();
        current = Number.POSITIVE_INFINITY;
      }
      expect(r.observe(ms)).toBe(Math.min(current, ...kept));
      expect(r.value).toBe(Math.min(current, ...kept));
    }
  });

  it('counts the first answer at once', () => {
    expect(new ShortestRecent().observe(42)).toBe(42);
  });
});
