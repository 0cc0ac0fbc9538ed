import { describe, expect, it } from 'vitest';
import { rendezvousOwner } from './rendezvous.js';

const orgs = Array.from({ length: 300 }, (_, i) => `org_${i}`);
const assign = (members: string[]) => new Map(orgs.map((o) => [o, rendezvousOwner(o, members)]));

describe('rendezvousOwner', () => {
  it('no members, no owner', () => {
    expect(rendezvousOwner('org_a', [])).toBeUndefined();
  });

  it('does not depend on the order of the member list', () => {
    const a = assign(['r1', 'r2', 'r3']);
    const b = assign(['r3', 'r1', 'r2']);
    expect([...a]).toEqual([...b]);
  });

  it('spreads keys over every member', () => {
    const counts = new Map<string, number>();
    for (const owner of assign(['r1', 'r2', 'r3']).values())
      counts.set(owner!, (counts.get(owner!) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['r1', 'r2', 'r3']);
    for (const n of counts.values()) expect(n).toBeGreaterThan(60);
  });

  it('moves only the keys of a member that leaves, and only to a member that joins', () => {
    const three = assign(['r1', 'r2', 'r3']);
    const two = assign(['r1', 'r2']);
    for (const o of orgs) if (three.get(o) !== 'r3') expect(two.get(o)).toBe(three.get(o));
    const four = assign(['r1', 'r2', 'r3', 'r4']);
    for (const o of orgs) if (four.get(o) !== 'r4') expect(four.get(o)).toBe(three.get(o));
    expect([...four.values()].filter((m) => m === 'r4').length).toBeGreaterThan(40);
  });
});
