import { describe, expect, it } from 'vitest';
import { deriveEvents, type Condition, type EventType, type Observation } from './events.js';

const counts = { create: 1, update: 0, delete: 2, move: 0 };
const org = 'org_a';
const drift = (checksum = 'c1', healing = false): Observation => ({
  org,
  kind: 'drift',
  checksum,
  counts,
  changes: [{ action: 'delete', kind: 'team', address: 'org_a/teams/Old' }],
  healing,
});
const applied: Observation = { org, kind: 'applied', runId: 'r1', counts, applied: 3 };
const failed: Observation = { org, kind: 'apply-failed', error: 'PUT /x answered 500', code: 'server' };
const refused: Observation = { org, kind: 'refused', reason: 'too many deletions (needs --allow-deletes 3)' };
const driftError: Observation = {
  org,
  kind: 'drift-error',
  error: 'GET /orgs/org_a/teams failed',
  code: 'server',
};
const inSync: Observation = { org, kind: 'in-sync' };
const planned: Observation = { org, kind: 'planned' };

describe('deriveEvents: what a run tells, given where the organization stood', () => {
  const cases: [string, Condition | undefined, Observation, string[], Condition | undefined][] = [
    ['first in-sync tells nothing', undefined, inSync, [], 'ok'],
    ['in sync, still in sync', 'ok', inSync, [], 'ok'],
    ['drift', 'ok', drift(), ['drift:error'], 'drifted'],
    ['drift that self-heal corrects is info', 'ok', drift('c1', true), ['drift:info'], 'drifted'],
    ['drift, then in sync: recovered', 'drifted', inSync, ['recovered:info'], 'ok'],
    [
      'drift, then applied: applied and recovered',
      'drifted',
      applied,
      ['applied:info', 'recovered:info'],
      'ok',
    ],
    ['applied from ok: no recovered', 'ok', applied, ['applied:info'], 'ok'],
    ['apply failed', 'ok', failed, ['apply-failed:error'], 'failing'],
    ['refused', 'ok', refused, ['refused:error'], 'failing'],
    ['drift error', 'ok', driftError, ['drift-error:error'], 'failing'],
    ['error, then in sync: recovered', 'failing', inSync, ['recovered:info'], 'ok'],
    ['error, then drift: no recovered', 'failing', drift(), ['drift:error'], 'drifted'],
    ['plan mode: a plan after an error recovers', 'failing', planned, ['recovered:info'], 'ok'],
    ['plan mode: a plan does not end a drift', 'drifted', planned, [], 'drifted'],
    ['plan mode: a plan from nothing stays unknown', undefined, planned, [], undefined],
  ];
  it.each(cases)('%s', (_name, prev, observation, events, next) => {
    const result = deriveEvents(prev, observation);
    expect(result.events.map((e) => `${e.type}:${e.severity}`)).toEqual(events);
    expect(result.next).toBe(next);
    for (const e of result.events) expect(e.org).toBe(org);
  });

  it('the same state has the same fingerprint; another state another', () => {
    const fp = (prev: Condition | undefined, o: Observation) => deriveEvents(prev, o).events[0]!.fingerprint;
    expect(fp('ok', drift('c1'))).toBe(fp('failing', drift('c1')));
    expect(fp('ok', drift('c1'))).not.toBe(fp('ok', drift('c2')));
    expect(fp('ok', driftError)).toBe(fp('ok', { ...driftError }));
    expect(fp('ok', driftError)).not.toBe(fp('ok', { ...driftError, error: 'another' }));
    // Every apply is news: the run id is in its fingerprint.
    expect(fp('ok', applied)).not.toBe(fp('ok', { ...applied, runId: 'r2' }));
    // A fingerprint is a digest, never the text (which may hold data).
    expect(fp('ok', driftError)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('texts: the drift summary counts like every other place; errors carry their message', () => {
    const [d] = deriveEvents('ok', { ...drift(), commit: 'a'.repeat(40) }).events;
    expect(d).toMatchObject({
      summary:
        'docsync drift: live state differs from the configuration: 1 to create, 0 to update, 2 to delete, 0 to move',
      commit: 'a'.repeat(40),
      details: { counts, checksum: 'c1' },
    });
    const [e] = deriveEvents('ok', driftError).events;
    expect(e!.message).toBe('GET /orgs/org_a/teams failed');
    expect(e!.details).toEqual({ error: 'GET /orgs/org_a/teams failed', code: 'server' });
    const types: EventType[] = [applied, failed, refused, drift(), driftError].flatMap((o) =>
      deriveEvents('ok', o).events.map((x) => x.type),
    );
    expect(types).toEqual(['applied', 'apply-failed', 'refused', 'drift', 'drift-error']);
  });
});
