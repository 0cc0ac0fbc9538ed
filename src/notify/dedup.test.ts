import { describe, expect, it } from 'vitest';
import { accepts, Dedup, verdict, type EventFilter } from './dedup.js';
import { deriveEvents, EVENT_TYPES, type NotificationEvent, type Observation } from './events.js';

const counts = { create: 0, update: 0, delete: 1, move: 0 };
const driftOf = (checksum: string, org = 'org_a'): Observation => ({
  org,
  kind: 'drift',
  checksum,
  counts,
  changes: [],
  healing: false,
});
const one = (o: Observation, prev: 'ok' | 'drifted' | 'failing' = 'ok'): NotificationEvent =>
  deriveEvents(prev, o).events[0]!;
const drift = one(driftOf('c1'));
const drift2 = one(driftOf('c2'));
const recovered = one({ org: 'org_a', kind: 'in-sync' }, 'drifted');
const applied = one({ org: 'org_a', kind: 'applied', runId: 'r', applied: 1 });
const refused = one({ org: 'org_a', kind: 'refused', reason: 'too many deletions' });
const driftError = one({ org: 'org_a', kind: 'drift-error', error: 'x', code: 'server' });
const all: EventFilter = { severity: 'info', events: EVENT_TYPES };

describe('accepts: severity, event types, organizations', () => {
  const cases: [string, EventFilter, NotificationEvent, boolean][] = [
    ['info takes info', all, applied, true],
    ['info takes errors', all, drift, true],
    ['error drops info', { ...all, severity: 'error' }, applied, false],
    ['error takes errors', { ...all, severity: 'error' }, drift, true],
    ['events not listed', { ...all, events: ['drift-error'] }, drift, false],
    ['organization listed', { ...all, orgs: ['org_a'] }, drift, true],
    ['organization not listed', { ...all, orgs: ['org_b'] }, drift, false],
  ];
  it.each(cases)('%s', (_name, filter, event, expected) => expect(accepts(filter, event)).toBe(expected));
});

describe('dedup: once per state, per provider and organization', () => {
  it.each<[string, EventFilter, NotificationEvent[], string[]]>([
    ['the same drift twice is sent once', all, [drift, drift], ['send', 'duplicate']],
    ['another drift is sent', all, [drift, drift2], ['send', 'send']],
    ['drift, recovered, the same drift: all sent', all, [drift, recovered, drift], ['send', 'send', 'send']],
    [
      'a provider without recovered still sees the state change',
      { ...all, events: ['drift'] },
      [drift, recovered, drift],
      ['send', 'filtered', 'send'],
    ],
    [
      'a self-heal the guard refuses at every check: one drift, one refusal',
      all,
      [drift, refused, drift, refused],
      ['send', 'send', 'duplicate', 'duplicate'],
    ],
    [
      'drift, another drift, the first again: all news',
      all,
      [drift, drift2, drift],
      ['send', 'send', 'send'],
    ],
    [
      'the same drift around a drift error is one drift',
      all,
      [drift, driftError, drift, driftError],
      ['send', 'send', 'duplicate', 'duplicate'],
    ],
    [
      'another organization is its own state',
      all,
      [drift, one(driftOf('c1', 'org_b')), drift],
      ['send', 'send', 'duplicate'],
    ],
  ])('%s', (_name, filter, events, expected) => {
    const dedup = new Dedup();
    const got = events.map((e) => {
      const v = verdict(filter, dedup, e, 0);
      if (v === 'send') dedup.seen(e, 0);
      return v;
    });
    expect(got).toEqual(expected);
  });

  it('a failed delivery is not seen: the same event is tried again', () => {
    const dedup = new Dedup();
    expect(verdict(all, dedup, drift, 0)).toBe('send');
    // (delivery failed: not recorded)
    expect(verdict(all, dedup, drift, 1)).toBe('send');
  });

  it('unchanged drift is sent again once the reminder is due; nothing else is', () => {
    const dedup = new Dedup(1000);
    dedup.seen(drift, 0);
    expect(dedup.duplicate(drift, 999)).toBe(true);
    expect(dedup.duplicate(drift, 1000)).toBe(false);
    const error = one({ org: 'org_a', kind: 'drift-error', error: 'x', code: 'server' });
    dedup.seen(error, 0);
    expect(dedup.duplicate(error, 10_000)).toBe(true);
  });
});
