import { describe, expect, it } from 'vitest';
import { addressGlobProblem, matchesAddress } from './address-glob.js';

describe('address globs', () => {
  it.each([
    ['sites/Docs', 'org_a/sites/Docs', true],
    ['org_a/sites/Docs', 'org_a/sites/Docs', true],
    ['org_b/sites/Docs', 'org_a/sites/Docs', false],
    ['sites/Docs', 'org_a/sites/Docs/sections/guides', false],
    ['sites/Docs/**', 'org_a/sites/Docs', true],
    ['sites/Docs/**', 'org_a/sites/Docs/sections/guides/spaces/space_1', true],
    ['sites/Docs/**', 'org_a/sites/Docs 2', false],
    ['teams/*', 'org_a/teams/Writers', true],
    ['teams/*', 'org_a/teams/Writers/members', false],
    ['sites/*/sections/guides', 'org_a/sites/API/sections/guides', true],
    ['sites/Docs (beta)', 'org_a/sites/Docs (beta)', true],
    ['sites/Docs [v2]+', 'org_a/sites/Docs [v2]+', true],
    ['sites/Dev*', 'org_a/sites/Developer Docs', true],
    ['**/sections/guides', 'org_a/sites/Docs/sections/guides', true],
  ])('%s matches %s: %s', (pattern, address, expected) => {
    expect(addressGlobProblem(pattern)).toBeNull();
    expect(matchesAddress(pattern, address)).toBe(expected);
  });

  it.each([
    ['', /empty/],
    ['  ', /empty/],
    ['/sites/Docs', /single slashes/],
    ['sites//Docs', /single slashes/],
    ['sites/Docs/', /single slashes/],
    ['sites/Doc**', /whole segment/],
  ])('%j is not a pattern', (pattern, problem) => {
    expect(addressGlobProblem(pattern)).toMatch(problem);
  });
});
