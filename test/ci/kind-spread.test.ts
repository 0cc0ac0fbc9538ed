import { describe, expect, it } from 'vitest';
import { resourceKinds } from '../../src/kinds/registry.js';
import { KIND_SPELLINGS, kindSpread, withoutComments, withoutProse } from './kind-spread.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A kind lives in its module (src/kinds/): at most this many source files outside the emulator name it. */
const LIMIT = 5;
const SHARED = ['src/kinds/registry.ts', 'src/kinds/types.ts', 'src/kinds/shapes.ts', 'src/kinds/fields.ts'];

describe('one kind, one module', () => {
  const spread = kindSpread(ROOT);

  it('has spellings for every kind of the plan', () => {
    expect(Object.keys(KIND_SPELLINGS).sort()).toEqual([...resourceKinds].sort());
  });

  it.each(Object.keys(KIND_SPELLINGS))('%s is named in at most five source files', (kind) => {
    const modules = spread[kind]!.filter((f) => f.startsWith('src/kinds/') && !SHARED.includes(f));
    expect(modules.length, `${kind}: its module in src/kinds/`).toBeGreaterThan(0);
    expect(spread[kind]!.length, spread[kind]!.join('\n')).toBeLessThanOrEqual(LIMIT);
  });

  it('counts code, not comments or prose', () => {
    expect(withoutProse("h('<h3>Site structure</h3>'); r = '/orgs/{org}/sites';")).toBe(
      `h('${' '.repeat('<h3>Site structure</h3>'.length)}'); r = '/orgs/{org}/sites';`,
    );
    // A template's text is prose when it holds a space; the code inside `${…}` is code.
    expect(withoutProse('t = `Site ${f(DesiredSite, `x y`)} of ${a}`;')).toBe(
      't = `     ${f(DesiredSite, `   `)}    ${a}`;',
    );
    // A regular expression with a quote does not open a string; comments are code no more.
    expect(withoutProse("x = /'/.test(s); // 'Site'\ny = LiveSite;")).toBe(
      `x = /'/.test(s); ${' '.repeat("// 'Site'".length)}\ny = LiveSite;`,
    );
    expect(withoutComments("a // share link\nb /* saml */ c 'https://x'")).toBe("a \nb  c 'https://x'");
    expect(KIND_SPELLINGS['share-link']!.test("visibility: 'share-link'")).toBe(false);
    expect(KIND_SPELLINGS['share-link']!.test("type: 'create-share-link'")).toBe(true);
  });
});
