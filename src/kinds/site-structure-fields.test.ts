import { describe, expect, it } from 'vitest';
import { changedFields } from '../diff/draft.js';
import {
  SECTION_FIELDS,
  SITE_SPACE_FIELDS,
  sectionUnchanged,
  siteSpaceUnchanged,
} from './site-structure-fields.js';
import type { DesiredSection, DesiredSiteSpace, LiveSection, LiveSiteSpace } from './site-section.js';

/** A seeded generator (the same values on every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** A value a field may hold: unset, null, a flag, a short text, a localized text. */
function valueOf(rnd: () => number): unknown {
  const pick = [undefined, null, true, false, 'a', 'b', {}, { fr: 'x' }, { fr: 'y' }];
  return pick[Math.floor(rnd() * pick.length)];
}

function entry(keys: readonly string[], rnd: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = valueOf(rnd);
    if (value !== undefined || rnd() < 0.5) out[key] = value;
  }
  return out;
}

describe("the structure diff's unchanged-field checks", () => {
  it('say "unchanged" exactly where changedFields finds no change (site spaces and sections)', () => {
    const rnd = random(42);
    let unchanged = 0;
    for (let n = 0; n < 4000; n += 1) {
      const keys = n % 2 === 0 ? SITE_SPACE_FIELDS : SECTION_FIELDS;
      const d = entry(keys, rnd);
      // Half the pairs differ in one field at most, so that both answers are common.
      // A deep copy half the time: equal localized texts that are other objects.
      const l = rnd() < 0.5 ? (rnd() < 0.5 ? { ...d } : structuredClone(d)) : entry(keys, rnd);
      const want = changedFields(d, l, keys) === null;
      const got =
        n % 2 === 0
          ? siteSpaceUnchanged(d as DesiredSiteSpace, l as unknown as LiveSiteSpace)
          : sectionUnchanged(d as unknown as DesiredSection, l as unknown as LiveSection);
      // Exactly changedFields' answer: equal localized texts (two objects) are unchanged too.
      expect(got).toBe(want);
      if (want) unchanged += 1;
    }
    expect(unchanged).toBeGreaterThan(500);
  });

  // A field added to SITE_SPACE_FIELDS or SECTION_FIELDS but not to the check would be called
  // unchanged, and its update dropped from the plan: each field, changed alone, must be seen.
  it.each([
    ...SITE_SPACE_FIELDS.map((field) => ['site space', field] as const),
    ...SECTION_FIELDS.map((field) => ['section', field] as const),
  ])('sees a %s whose %s alone changes', (what, field) => {
    const keys: readonly string[] = what === 'site space' ? SITE_SPACE_FIELDS : SECTION_FIELDS;
    const l = Object.fromEntries(keys.map((k) => [k, 'a']));
    const d = { ...l, [field]: 'b' };
    expect(changedFields(d, l, keys)).not.toBeNull();
    const unchanged =
      what === 'site space'
        ? siteSpaceUnchanged(d as unknown as DesiredSiteSpace, l as unknown as LiveSiteSpace)
        : sectionUnchanged(d as unknown as DesiredSection, l as unknown as LiveSection);
    expect(unchanged).toBe(false);
  });
});
