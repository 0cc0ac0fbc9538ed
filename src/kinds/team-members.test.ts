import { describe, expect, it } from 'vitest';
import { rng } from '../../test/helpers/random-state.js';
import { pick, shuffle, type Random } from './examples.js';
import {
  caselessEqual,
  membersAsLive,
  membersChange,
  repeatsCaseless,
  type DesiredTeamMember,
  type LiveTeamMember,
} from './team-members.js';

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

/**
 * The compare without lower-cased copies (`caselessEqual`) against `toLowerCase` on both: ASCII
 * texts in any case, of equal and unequal lengths, and characters whose lower case is longer (`İ`),
 * context-dependent (`Σ` at a word's end) or outside ASCII but equal in both.
 */
describe('caselessEqual', () => {
  const ALPHABET = [
    'a',
    'A',
    'b',
    'B',
    'z',
    'Z',
    '@',
    '[',
    '`',
    '{',
    '0',
    '.',
    'İ',
    'i̇',
    'Σ',
    'σ',
    'ς',
    'é',
    'É',
    'ß',
    'K',
  ];
  const textOf = (r: Random, n: number) => Array.from({ length: n }, () => pick(r, ALPHABET)).join('');
  const slowEqual = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

  it('answers as toLowerCase on both, on 20,000 generated pairs', () => {
    const r = rng(42);
    let equal = 0;
    for (let k = 0; k < 20_000; k += 1) {
      const a = textOf(r, Math.floor(r() * 5));
      // Half the pairs are `a` with some letters' case flipped, so that many are equal.
      const b =
        r() < 0.5
          ? [...a].map((c) => (r() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('')
          : textOf(r, Math.floor(r() * 5));
      expect(caselessEqual(a, b), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(slowEqual(a, b));
      if (slowEqual(a, b)) equal += 1;
    }
    expect(equal).toBeGreaterThan(5_000);
  });

  it.each([
    ['u0@example.com', 'U0@EXAMPLE.COM', true],
    ['u0@example.com', 'u1@example.com', false],
    ['u0@example.com', 'u0@example.co', false],
    ['İx', 'i̇x', true],
    ['İ', 'i', false],
    ['ΑΣ', 'ας', true],
    ['@', '`', false],
    ['[', '{', false],
    ['', '', true],
  ] as const)('%j and %j: %s', (a, b, same) => {
    expect(caselessEqual(a, b)).toBe(same);
    expect(slowEqual(a, b)).toBe(same);
  });
});

describe('repeatsCaseless', () => {
  it('answers as a set of the lower-cased users', () => {
    const r = rng(7);
    const names = ['u0@example.com', 'U0@example.com', 'u1@example.com', 'user_1', 'USER_1', 'İ', 'i̇'];
    for (let k = 0; k < 2_000; k += 1) {
      const entries = Array.from({ length: Math.floor(r() * 6) }, () => {
        const user = pick(r, names);
        return r() < 0.5 ? user : { user };
      });
      const users = entries.map((m) => (typeof m === 'string' ? m : m.user).toLowerCase());
      expect(repeatsCaseless(entries)).toBe(new Set(users).size !== users.length);
    }
  });
});
