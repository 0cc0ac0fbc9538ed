import { describe, expect, it } from 'vitest';
import { readiness } from './health.js';

describe('readiness', () => {
  const ok = { ok: true, at: '2026-01-01T00:00:00Z' };

  it('follows the coordination session: no lease, not ready, whatever the last read', () => {
    expect(readiness(true, ok, { ok: true })).toEqual({ ready: true });
    expect(readiness(true, ok, { ok: false, reason: 'the etcd lease is not held: down' })).toEqual({
      ready: false,
      reason: 'the etcd lease is not held: down',
    });
  });

  it('needs the first run and a good last read', () => {
    expect(readiness(false, null).ready).toBe(false);
    expect(readiness(true, { ...ok, ok: false, error: 'boom' })).toEqual({
      ready: false,
      reason: 'live state cannot be read: boom',
    });
    expect(readiness(true, null)).toEqual({ ready: true });
  });
});
