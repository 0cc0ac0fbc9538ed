import { describe, expect, it } from 'vitest';
import { resourceKinds } from '../../src/model/kinds.js';
import { KIND_SPELLINGS, kindSpread, withoutComments } from './kind-spread.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A kind lives in its module (src/kinds/): at most this many source files outside the emulator name it. */
const LIMIT = 5;
const SHARED = ['src/kinds/registry.ts', 'src/kinds/types.ts', 'src/kinds/fields.ts'];

/**
 * Kinds not yet moved into their module: the files that name them today, a ceiling that only
 * goes down (decision 0020 lists them). Every other kind must be within LIMIT.
 */
const NOT_YET_MOVED: Record<string, number> = {
  site: 23,
  'site-section': 19,
  'site-section-group': 18,
  'section-group-membership': 6,
  'site-space': 16,
};

describe('one kind, one module', () => {
  const spread = kindSpread(ROOT);

  it('has spellings for every kind of the plan', () => {
    expect(Object.keys(KIND_SPELLINGS).sort()).toEqual([...resourceKinds].sort());
  });

  it.each(Object.keys(KIND_SPELLINGS).filter((k) => !(k in NOT_YET_MOVED)))(
    '%s is named in at most five source files',
    (kind) => {
      const modules = spread[kind]!.filter((f) => f.startsWith('src/kinds/') && !SHARED.includes(f));
      expect(modules.length, `${kind}: its module in src/kinds/`).toBeGreaterThan(0);
      expect(spread[kind]!.length, spread[kind]!.join('\n')).toBeLessThanOrEqual(LIMIT);
    },
  );

  it.each(Object.entries(NOT_YET_MOVED))(
    '%s (not yet moved) is named in no more files than before',
    (kind, ceiling) => {
      expect(spread[kind]!.length, spread[kind]!.join('\n')).toBeLessThanOrEqual(ceiling);
    },
  );

  it('counts code, not comments', () => {
    expect(withoutComments("a // share link\nb /* saml */ c 'https://x'")).toBe("a \nb  c 'https://x'");
    expect(KIND_SPELLINGS['share-link']!.test("visibility: 'share-link'")).toBe(false);
    expect(KIND_SPELLINGS['share-link']!.test("type: 'create-share-link'")).toBe(true);
  });
});
