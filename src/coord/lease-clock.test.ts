import { describe, expect, it } from 'vitest';
import { defaultMarginMs, LeaseClock } from './lease-clock.js';

function clock(ttl = 3000, margin = 600) {
  let t = 1000;
  const c = new LeaseClock(ttl, margin, () => t);
  return { c, advance: (ms: number) => (t += ms), at: () => t };
}

describe('LeaseClock', () => {
  it('is closed before the first grant', () => {
    const { c } = clock();
    expect(c.held()).toBe(false);
    expect(c.remainingMs()).toBe(0);
    expect(c.sinceRenewalMs()).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts TTL minus margin from when the renewal was sent, not when it was answered', () => {
    const { c, advance } = clock();
    const sent = c.mark();
    advance(1000); // a slow answer
    c.renewed(sent);
    expect(c.remainingMs()).toBe(3000 - 600 - 1000);
    advance(1399);
    expect(c.held()).toBe(true);
    advance(1);
    expect(c.held()).toBe(false);
  });

  it('closes after a pause longer than the TTL, whatever came before', () => {
    const { c, advance } = clock();
    c.renewed(c.mark());
    advance(10_000); // SIGSTOP
    expect(c.held()).toBe(false);
    expect(c.remainingMs()).toBeLessThan(0);
  });

  it('an answer to an older renewal never moves the clock back', () => {
    const { c, advance } = clock();
    const first = c.mark();
    advance(500);
    const second = c.mark();
    c.renewed(second);
    c.renewed(first);
    expect(c.remainingMs()).toBe(2400);
    advance(100);
    expect(c.sinceRenewalMs()).toBe(100);
  });

  it('lost() closes at once', () => {
    const { c } = clock();
    c.renewed(c.mark());
    c.lost();
    expect(c.held()).toBe(false);
  });

  it('refuses a margin as long as the TTL; the default margin stays below it', () => {
    expect(() => new LeaseClock(1000, 1000)).toThrow(/margin/);
    expect(defaultMarginMs(15_000)).toBe(3000);
    expect(defaultMarginMs(2000)).toBe(500);
    expect(defaultMarginMs(600)).toBe(300);
  });
});
