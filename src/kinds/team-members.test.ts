import { describe, expect, it } from 'vitest';
import { rng } from '../../test/helpers/random-state.js';
import { pick, shuffle, type Random } from './examples.js';
import { membersAsLive, membersChange, type DesiredTeamMember, type LiveTeamMember } from './team-members.js';

/**
 * The fast path of an unchanged membership (`membersAsLive`) against the full difference
 * (`membersChange`): where it is taken, the full one finds nothing; near-equal memberships (a role,
 * a member more or less, another order, one user named twice) are told apart from equal ones.
 */

const USERS = Array.from({ length: 8 }, (_, i) => ({ userId: `user_${i}`, email: `U${i}@example.com` }));

const liveOf = (r: Random, n: number): LiveTeamMember[] =>
  shuffle(r, USERS)
    .slice(0, n)
    .map((u) => ({ ...u, email: r() < 0.2 ? null : u.email, role: pick(r, ['owner', 'member'] as const) }));

/** The entries that name the live members (by id or by e-mail in another case), in some order. */
const entriesOf = (r: Random, live: readonly LiveTeamMember[]): DesiredTeamMember[] =>
  live.map((m) => ({
    user: m.email !== null && r() < 0.7 ? (r() < 0.5 ? m.email.toLowerCase() : m.email) : m.userId,
    role: m.role,
  }));

type Change = { name: string; equal: boolean; apply: (d: DesiredTeamMember[], r: Random) => void };
const changes: Change[] = [
  { name: 'equal', equal: true, apply: () => {} },
  { name: 'in another order', equal: true, apply: (d, r) => d.splice(0, d.length, ...shuffle(r, d)) },
  {
    name: 'a role changed',
    equal: false,
    apply: (d, r) => {
      if (d.length) {
        const m = pick(r, d);
        m.role = m.role === 'owner' ? 'member' : 'owner';
      }
    },
  },
  { name: 'a member removed', equal: false, apply: (d) => void d.pop() },
  {
    name: 'a member added',
    equal: false,
    apply: (d) => void d.push({ user: 'new@example.com', role: 'member' }),
  },
  {
    name: 'one live member named twice (by id and by e-mail), another left out',
    equal: false,
    apply: (d) => {
      if (d.length > 1) d[1] = { ...d[0]! };
    },
  },
];

describe('an unchanged team membership (team-members.ts)', () => {
  it.each(Array.from({ length: 40 }, (_, seed) => seed))(
    'seed %i: no change where the fast path is taken, and equal ones are found',
    (seed) => {
      const r = rng(seed + 1);
      for (const change of changes) {
        const live = liveOf(r, Math.floor(r() * 6));
        const desired = entriesOf(r, live);
        change.apply(desired, r);
        const asLive = membersAsLive(desired, live);
        const full = membersChange(desired, live);
        if (asLive) expect(full).toBeNull();
        // Equal memberships take the fast path, and so does any the full difference finds none in
        // (as many entries as live members: else one user is named twice).
        if (change.equal) expect(asLive).toBe(true);
        if (full === null && desired.length === live.length) expect(asLive).toBe(true);
        if (!change.equal && live.length > 1) expect(asLive).toBe(false);
      }
    },
  );

  it('a user named once by id and once by e-mail is one member: the full difference says so', () => {
    const live: LiveTeamMember[] = [
      { userId: 'user_1', email: 'a@example.com', role: 'member' },
      { userId: 'user_2', email: 'b@example.com', role: 'member' },
    ];
    const desired: DesiredTeamMember[] = [
      { user: 'user_1', role: 'member' },
      { user: 'A@example.com', role: 'member' },
    ];
    expect(membersAsLive(desired, live)).toBe(false);
    expect(membersChange(desired, live)?.remove).toEqual(['user_2']);
  });

  it('more members than one integer tells apart: the full difference', () => {
    const live = Array.from({ length: 31 }, (_, i): LiveTeamMember => ({
      userId: `user_${i}`,
      email: null,
      role: 'member',
    }));
    const desired = live.map((m) => ({ user: m.userId, role: m.role }));
    expect(membersAsLive(desired, live)).toBe(false);
    expect(membersChange(desired, live)).toBeNull();
  });
});
