import { describe, expect, it } from 'vitest';
import type { Change } from '../reconcile/index.js';
import { attribute, describeAttribution, targetsOf, whoChanged, type AuditEntry } from './attribution.js';

const change = (id: string, address: string, op: Record<string, unknown>): Change =>
  ({ id, action: 'update', kind: 'team', address, before: null, after: null, dependsOn: [], op }) as never;

const event = (target: string, label: string | undefined, actor: string, at: string): AuditEntry => ({
  occurredAt: at,
  action: 'x.updated',
  actor: { type: 'user', id: actor, label: `${actor}@acme.com` },
  target: { type: 'x', id: target, ...(label ? { label } : {}) },
});

describe('targetsOf', () => {
  it.each([
    [{ type: 'update-member', org: 'o', userId: 'u1', role: 'read' }, ['u1']],
    [
      { type: 'update-section', org: 'o', site: { id: 's1' }, section: { id: 'sec1' }, patch: {} },
      ['s1', 'sec1'],
    ],
    [{ type: 'update-section', org: 'o', site: { change: 'c1' }, section: { change: 'c2' } }, []],
    [{ type: 'update-openapi-spec', org: 'o', slug: 'pets', url: 'https://x' }, []],
  ])('%j names %j', (op, ids) => expect(targetsOf(change('c', 'o/x', op))).toEqual(ids));
});

describe('attribute', () => {
  const changes = [
    change('c1', 'o/sites/Docs/sections/guides', {
      type: 'update-section',
      site: { id: 's1' },
      section: { id: 'sec1' },
    }),
    change('c2', 'o/teams/Legal', { type: 'create-team', org: 'o', title: 'Legal' }),
    change('c3', 'o/teams/Other', { type: 'update-team', team: { id: 't9' } }),
  ];
  it('takes the newest event of the most specific target, then the label, else null', () => {
    const got = attribute(changes, [
      event('s1', 'Docs', 'sam', '2026-11-25T10:00:00Z'),
      event('sec1', 'guides', 'ann', '2026-11-25T09:00:00Z'),
      event('sec1', 'guides', 'bob', '2026-11-25T11:00:00Z'),
      event('t_gone', 'Legal', 'cat', '2026-11-25T08:00:00Z'),
    ]);
    expect(got).toEqual({
      c1: { actor: 'bob@acme.com', at: '2026-11-25T11:00:00Z', action: 'x.updated' },
      c2: { actor: 'cat@acme.com', at: '2026-11-25T08:00:00Z', action: 'x.updated' },
      c3: null,
    });
  });
});

describe('describeAttribution', () => {
  const now = new Date('2026-11-25T17:02:00Z');
  it.each([
    [
      { actor: 'ann@acme.com', at: '2026-11-25T14:02:00Z', action: 'a' },
      'changed by ann@acme.com at 2026-11-25 14:02 UTC, 3 h ago',
    ],
    [
      { actor: 'ann@acme.com', at: '2026-11-25T16:52:00Z', action: 'a' },
      'changed by ann@acme.com at 2026-11-25 16:52 UTC, 10 min ago',
    ],
    [
      { actor: 'ann@acme.com', at: '2026-11-20T17:02:00Z', action: 'a' },
      'changed by ann@acme.com at 2026-11-20 17:02 UTC, 5 days ago',
    ],
    [null, 'changed by: unknown (the audit log has nothing for it)'],
  ])('%j', (a, text) => expect(describeAttribution(a, now)).toBe(text));
});

describe('whoChanged', () => {
  const at = '2026-11-25T10:00:00Z';
  it.each([
    [undefined, undefined],
    [{ readAt: at, byChange: {}, unavailable: 'no audit log' }, undefined],
    [{ readAt: at, byChange: {} }, undefined],
    [
      {
        readAt: at,
        byChange: {
          c1: { actor: 'bob@acme.com', at, action: 'a' },
          c2: null,
          c3: { actor: 'ann@acme.com', at, action: 'a' },
          c4: { actor: 'bob@acme.com', at, action: 'a' },
        },
      },
      'bob@acme.com (2), ann@acme.com (1), unknown (1)',
    ],
  ])('%j → %s', (a, want) => expect(whoChanged(a)).toBe(want));
});
