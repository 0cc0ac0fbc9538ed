import { describe, expect, it } from 'vitest';
import type { LiveState } from '../reconcile/index.js';
import { readFailureOf } from './failure.js';

/**
 * Readiness judges the API, not the config: an organization whose plan has an error about its
 * config (an unknown reference) was still read, and the daemon stays ready.
 */
describe('readFailureOf', () => {
  const live = {
    organizations: [
      { id: 'org_ok' },
      {
        id: 'org_down',
        readError: 'GET /orgs/org_down/teams answered 503',
        readFailure: { code: 'http-503' },
      },
    ],
  } as unknown as LiveState;
  it.each([
    ['org_ok', undefined],
    ['org_down', 'GET /orgs/org_down/teams answered 503'],
    ['org_unknown', undefined],
  ])('%s → %s', (org, want) => expect(readFailureOf(live, org)).toBe(want));
});
