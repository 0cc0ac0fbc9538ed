import { describe, expect, it } from 'vitest';
import { OrgQueue, type OrgJob } from './org-queue.js';

/** A queue whose runs end only when the test says so, per organization. */
function gatedQueue(limit: number) {
  const started: [string, OrgJob][] = [];
  const finishers = new Map<string, (() => void)[]>();
  const queue = new OrgQueue(limit, (org, job) => {
    started.push([org, job]);
    return new Promise<void>((resolve) => finishers.set(org, [...(finishers.get(org) ?? []), resolve]));
  });
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (org: string) => {
    finishers.get(org)?.shift()?.();
    await tick();
  };
  const orgs = () => started.map(([org]) => org);
  return { queue, started, finish, orgs, tick };
}

describe('OrgQueue', () => {
  it('a stalled organization never delays another: each has its own queue', async () => {
    const { queue, finish, orgs, tick } = gatedQueue(4);
    void queue.trigger('org_slow', { sync: 'startup' });
    void queue.trigger('org_a', { sync: 'startup' });
    await tick();
    expect(orgs()).toEqual(['org_slow', 'org_a']);
    // org_a syncs again and again while org_slow is still in its first run.
    await finish('org_a');
    const again = queue.trigger('org_a', { sync: 'poll' });
    await tick();
    expect(orgs()).toEqual(['org_slow', 'org_a', 'org_a']);
    await finish('org_a');
    await again;
    // A newly gained organization starts at once.
    void queue.trigger('org_new', { sync: 'ownership' });
    await tick();
    expect(orgs()).toEqual(['org_slow', 'org_a', 'org_a', 'org_new']);
    await finish('org_new');
    await finish('org_slow');
    await queue.idle();
  });

  it('single flight per organization: jobs asked for during its run coalesce into one follow-up', async () => {
    const { queue, started, finish, tick } = gatedQueue(4);
    void queue.trigger('org_1', { sync: 'startup' });
    await tick();
    const followUps = [
      queue.trigger('org_1', { sync: 'poll' }),
      queue.trigger('org_1', { drift: true }),
      queue.trigger('org_1', { sync: 'webhook' }),
    ];
    await tick();
    expect(started).toEqual([['org_1', { sync: 'startup' }]]);
    await finish('org_1');
    expect(started).toEqual([
      ['org_1', { sync: 'startup' }],
      ['org_1', { sync: 'webhook', drift: true }],
    ]);
    await finish('org_1');
    await Promise.all(followUps);
    await queue.idle();
    expect(started).toHaveLength(2);
  });

  it('runs at most `limit` organizations at once, the others in the order they asked', async () => {
    const { queue, finish, orgs, tick } = gatedQueue(2);
    for (const org of ['org_1', 'org_2', 'org_3', 'org_4']) void queue.trigger(org, { sync: 'startup' });
    await tick();
    expect(orgs()).toEqual(['org_1', 'org_2']);
    expect(queue.active).toBe(2);
    await finish('org_2');
    expect(orgs()).toEqual(['org_1', 'org_2', 'org_3']);
    await finish('org_1');
    expect(orgs()).toEqual(['org_1', 'org_2', 'org_3', 'org_4']);
    await finish('org_3');
    await finish('org_4');
    await queue.idle();
    expect(queue.active).toBe(0);
  });

  it('a run that throws ends its slot like any other', async () => {
    let calls = 0;
    const queue = new OrgQueue(1, async () => {
      calls += 1;
      throw new Error('boom');
    });
    await queue.trigger('org_1', { sync: 'poll' });
    await queue.trigger('org_2', { sync: 'poll' });
    expect(calls).toBe(2);
  });

  it('once closed, ignores new jobs and drops waiting ones; the runs in flight finish', async () => {
    const { queue, finish, orgs, tick } = gatedQueue(1);
    void queue.trigger('org_1', { sync: 'startup' });
    const dropped = queue.trigger('org_2', { sync: 'startup' });
    await tick();
    queue.close();
    void queue.trigger('org_3', { sync: 'poll' });
    await dropped;
    await finish('org_1');
    await queue.idle();
    expect(orgs()).toEqual(['org_1']);
  });

  it('refuses a limit below 1', () => {
    expect(() => new OrgQueue(0, async () => {})).toThrow(/at least 1/);
  });
});
