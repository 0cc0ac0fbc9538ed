import { describe, expect, it } from 'vitest';
import type { DesiredOrganization } from '../reconcile/index.js';
import { affectedPart, keyOfAddress, verificationLine } from './verify.js';

describe('what verified apply re-reads', () => {
  it.each([
    ['org_a/sites/Docs/sections/guides', 'sites'],
    ['org_a/sites/Docs/share-links/partner', 'sites'],
    ['org_a/custom-fields/owner', 'customFields'],
    ['org_a/teams/Writers/members', 'teams'],
    ['org_a/members/ann@example.com', 'members'],
    ['org_a/settings', 'settings'],
    ['org_a/collections/Product', 'collections'],
    ['org_a/spaces/space_1/custom-fields', 'spaces'],
    ['org_a/nothing-known/x', undefined],
  ])('%s → %s', (address, key) => expect(keyOfAddress(address)).toBe(key));

  const org = {
    id: 'org_a',
    policy: { prune: false, maxDeletes: 10 },
    sites: [],
    teams: [],
    customFields: [],
    collections: [],
    spaces: [],
  } as unknown as DesiredOrganization;

  it('keeps only the keys the changes name (collections and spaces together)', () => {
    expect(Object.keys(affectedPart(org, ['org_a/sites/Docs', 'org_a/teams/W/members']))).toEqual([
      'id',
      'policy',
      'sites',
      'teams',
    ]);
    expect(Object.keys(affectedPart(org, ['org_a/spaces/space_1']))).toEqual([
      'id',
      'policy',
      'collections',
      'spaces',
    ]);
  });

  it('re-reads the whole organization when an address names no known key', () => {
    expect(affectedPart(org, ['org_a/sites/Docs', 'org_a/unknown/x'])).toBe(org);
  });

  it('says what remains in one line per run, control characters shown', () => {
    expect(verificationLine({ converged: true, reread: { org_a: ['sites'] }, remaining: [] })).toBe(
      'verify: converged (re-read sites)',
    );
    expect(
      verificationLine({
        converged: false,
        reread: { org_a: ['sites'] },
        remaining: [{ action: 'update', kind: 'site', address: 'org_a/sites/Do\ncs' }],
      }),
    ).toBe(
      'verify: not converged, 1 difference(s) remain after apply (re-read sites): update site org_a/sites/Do ↵ cs',
    );
    expect(verificationLine({ converged: false, reread: {}, remaining: [], error: 'HTTP 503' })).toBe(
      'verify: unknown, the re-read failed: HTTP 503',
    );
  });
});
