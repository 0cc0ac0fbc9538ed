import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';
import { OrgHealth } from './org-health.js';

describe('OrgHealth', () => {
  const setup = (owned: string[]) => {
    const metrics = createMetrics();
    let now = 1_000_000;
    const health = new OrgHealth(
      metrics,
      () => owned,
      () => now,
    );
    const advance = (ms: number) => (now += ms);
    const text = () => metrics.registry.metrics();
    return { health, advance, text };
  };

  it('measures from the change seen to its organization applied; a failed sync keeps it pending', async () => {
    const { health, advance, text } = setup(['org_a']);
    health.seen(['org_a']);
    advance(4000);
    health.finished('org_a', 'failed');
    expect(health.status()['org_a']).toMatchObject({
      owned: true,
      lastResult: 'failed',
      pendingSince: new Date(1_000_000).toISOString(),
    });
    advance(3000);
    health.finished('org_a', 'applied');
    expect(await text()).toMatch(/docsync_change_to_apply_seconds_sum 7\n/);
    expect(await text()).toMatch(/docsync_change_to_apply_seconds_count 1\n/);
    expect(health.status()['org_a']).toEqual({
      owned: true,
      lastResult: 'applied',
      lastSyncAt: new Date(1_007_000).toISOString(),
      lastSuccessAt: new Date(1_007_000).toISOString(),
      inSyncAt: new Date(1_007_000).toISOString(),
    });
  });

  it('a quiet poll confirms an organization in sync only when nothing is pending and its last sync succeeded', async () => {
    const { health, advance, text } = setup(['org_a', 'org_b']);
    health.finished('org_a', 'no-changes');
    health.finished('org_b', 'failed');
    advance(60_000);
    health.confirmed(['org_a', 'org_b']);
    expect(health.status()['org_a']!.inSyncAt).toBe(new Date(1_060_000).toISOString());
    expect(health.status()['org_b']!.inSyncAt).toBeUndefined();
    // The gauge: owned organizations only, in seconds; one never in sync counts from the start.
    expect(await text()).toContain('docsync_org_last_success_timestamp_seconds{org="org_a"} 1060');
    expect(await text()).toContain('docsync_org_last_success_timestamp_seconds{org="org_b"} 1000');
  });

  it('an organization taken over counts from that moment, and only owned ones are exported', async () => {
    const owned: string[] = [];
    const metrics = createMetrics();
    let now = 5_000;
    const health = new OrgHealth(
      metrics,
      () => owned,
      () => now,
    );
    health.finished('org_old', 'applied');
    now = 9_000;
    owned.push('org_new');
    health.gained(['org_new']);
    const text = await metrics.registry.metrics();
    expect(text).toContain('docsync_org_last_success_timestamp_seconds{org="org_new"} 9');
    expect(text).not.toContain('org_old');
    expect(health.status()['org_old']!.owned).toBe(false);
    expect(health.status()['org_new']).toMatchObject({
      owned: true,
      pendingSince: new Date(9_000).toISOString(),
    });
  });

  it('keeps the last live read per organization: readiness follows the owned ones, in any order', () => {
    const owned = ['org_a', 'org_b'];
    const { health, advance } = setup(owned);
    expect(health.liveRead()).toBeNull();
    health.read('org_a', 'boom');
    advance(1000);
    health.read('org_b');
    // B's later good read does not hide A's failure.
    expect(health.liveRead()).toMatchObject({ ok: false, error: 'org_a: boom' });
    health.read('org_b', 'down');
    advance(1000);
    expect(health.liveRead()).toMatchObject({
      ok: false,
      error: 'org_b: down (and 1 more organization(s))',
    });
    health.read('org_a');
    health.read('org_b');
    expect(health.liveRead()).toMatchObject({ ok: true });
    // An organization this replica no longer owns does not count.
    health.read('org_a', 'gone');
    owned.splice(0, 1);
    expect(health.liveRead()).toMatchObject({ ok: true });
  });
});
