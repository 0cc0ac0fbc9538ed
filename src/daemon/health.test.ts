import { describe, expect, it } from 'vitest';
import { readiness } from './health.js';

describe('readiness', () => {
  const ok = { ok: true, at: '2026-01-01T00:00:00Z' };

  it('follows the coordination session: no lease, not ready, whatever the last read', () => {
    expect(readiness(true, ok, { ok: true })).toEqual({ ready: true });
    expect(readiness(true, ok, { ok: false, reason: 'the etcd lease is not held: down' })).toEqual({
      ready: false,
      reason: 'no coordination session (the etcd lease is not held; see /status)',
    });
  });

  it('needs the first run and a good last read', () => {
    expect(readiness(false, null).ready).toBe(false);
    expect(readiness(true, { ...ok, ok: false, error: 'boom' })).toEqual({
      ready: false,
      reason: 'live state cannot be read (see /status)',
    });
    expect(readiness(true, null)).toEqual({ ready: true });
  });

  // /readyz is open beyond loopback: no error text (hosts, paths, account names) leaks there.
  it.each([
    [
      'a live-read error',
      true,
      { ...ok, ok: false, error: 'GET https://internal.host/v1/orgs: 401 for alice' },
      { ok: true },
    ],
    [
      'an etcd error',
      true,
      ok,
      { ok: false, reason: 'the etcd lease is not held: connect ECONNREFUSED 10.0.0.7:2379' },
    ],
  ] as const)('gives a generic reason for %s', (_name, firstRun, liveRead, session) => {
    const reason = readiness(firstRun, liveRead, session).reason ?? '';
    expect(reason).toMatch(/see \/status/);
    expect(reason).not.toMatch(/internal|alice|10\.0\.0\.7|ECONNREFUSED|401/);
  });
});
