import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { SETTLE_MARGIN_MS, settleMs } from './settle.js';

/**
 * The settle wait counts from the request's start (issue 34): until its own deadline plus a
 * margin. A request that timed out (test/integration/apply-settle.test.ts: a real one) has used its deadline, so only the margin is left; the old
 * wait was its whole deadline again plus the margin, counted from the timeout.
 */
describe('settleMs', () => {
  const timeout = (deadlineAt?: number) =>
    new ApiError({
      code: 'timeout',
      method: 'POST',
      route: '/orgs/{org}/teams',
      sent: true,
      deadlineMs: 2000,
      ...(deadlineAt !== undefined ? { deadlineAt } : {}),
    });
  const anyApi = { http: { timeoutMs: 20_000 } } as ApiClient;

  it('waits until the deadline plus the margin, measured on the clock', () => {
    expect(settleMs(anyApi, timeout(10_000), 9_400)).toBe(600 + SETTLE_MARGIN_MS);
    expect(settleMs(anyApi, timeout(10_000), 12_000)).toBe(SETTLE_MARGIN_MS);
    // Unknown start: the whole deadline again (the cautious bound).
    expect(settleMs(anyApi, timeout())).toBe(2000 + SETTLE_MARGIN_MS);
  });
});
