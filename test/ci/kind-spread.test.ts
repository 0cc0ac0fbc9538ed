import { describe, expect, it } from 'vitest';
import { resourceKinds } from '../../src/kinds/registry.js';
import {
  EXPLICIT_SPELLINGS,
  helpersNamingKinds,
  KIND_SPELLINGS,
  kindSpread,
  withoutComments,
  withoutProse,
} from './kind-spread.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A kind lives in its module (src/kinds/): at most this many source files outside the emulator name it. */
const LIMIT = 5;
const SHARED = ['src/kinds/registry.ts', 'src/kinds/types.ts', 'src/kinds/shapes.ts', 'src/kinds/fields.ts'];

/**
 * Test helpers and scripts that name a kind's spelling, and why. The golden cases, random states,
 * live model and emulator seeds of tests come from the kinds' examples (src/kinds/examples.ts).
 */
const HELPERS_NAMING_KINDS: Record<string, string> = {
  'test/helpers/openapi.ts': 'the official OpenAPI document of the API, not the openapi-spec kind',
  'test/helpers/openapi-fake.ts': 'a fake of the official OpenAPI document, not the openapi-spec kind',
  'scripts/compatibility-doc.ts': 'the official OpenAPI document of the API, not the openapi-spec kind',
  'scripts/changelog-section.mjs': 'a section of the changelog, not a site section',
  'scripts/changelog-section.d.mts': 'a section of the changelog, not a site section',
  'test/helpers/invariants.ts':
    'not derived yet: the identities of the emulator state that apply must not duplicate',
  'test/helpers/rich-seed.ts': 'not derived yet: a hand-written seed of every kind for export tests',
};

/**
 * Files whose subject is a relation to other kinds, not counted for them, and why: a grant gives a
 * team or a member a role on a space, a collection or a site (decision 0034), so the grant types
 * and kinds name those objects and subjects by design.
 */
const GRANT_FILES = [
  'src/model/grants.ts',
  'src/kinds/grants.ts',
  'src/kinds/grants-diff.ts',
  'src/kinds/space-grant.ts',
  'src/kinds/collection-grant.ts',
  'src/kinds/site-grant.ts',
];
/**
 * The effective-access computation (decision 0035) is a view across kinds by definition: who can
 * do what on which space, collection and site, through which team; so are the access rules and the
 * `docsync access` command that print and judge it.
 */
const ACCESS_FILES = [
  'src/access/aggregate.ts',
  'src/access/audit.ts',
  'src/access/effective.ts',
  'src/access/model.ts',
  'src/access/rules.ts',
  'src/config/access-rules.ts',
  'src/cli/access.ts',
];
/**
 * Parts of the site structure diff (src/kinds/site-structure-diff.ts), split off by idea to keep
 * files small: one diff of a site's sections and site spaces in several files, counted once.
 */
const STRUCTURE_DIFF_PARTS = [
  'src/kinds/site-structure-types.ts',
  'src/kinds/site-structure-fields.ts',
  'src/kinds/site-structure-spaces.ts',
  'src/kinds/site-structure-unique.ts',
  'src/kinds/site-structure-kept.ts',
  'src/kinds/site-space-overrides.ts',
  'src/kinds/structure-paths.ts',
];
/**
 * Parts of the plan's navigation tree (src/plan/structure-tree.ts), split off by idea to keep files
 * small: its nodes and marks, and the live tree it draws on. One tree in three files, counted once.
 */
const TREE_PARTS = ['src/plan/structure-node.ts', 'src/plan/structure-live.ts'];
const TREE_KINDS = [
  'site',
  'site-section',
  'site-section-group',
  'site-space',
  'site-external-link',
  'site-redirect',
];
/**
 * Parts of a module split off by idea to keep files small (decision 49), counted once with it: the
 * redirects the plan wants and the diff's calls, beside site-redirect.ts; the structure's config
 * (schemas, normalization, checks, docs) and its export, beside site-structure.ts, for the kinds
 * they name; the site's own diff, its read and its references (the spaces its site spaces name),
 * beside site.ts.
 */
const KIND_PARTS: Record<string, string[]> = {
  'src/kinds/site-diff.ts': ['site'],
  'src/kinds/site-read.ts': ['site'],
  'src/kinds/site-references.ts': ['site', 'space'],
  'src/kinds/site-redirect-resolve.ts': ['site-redirect'],
  'src/kinds/site-redirect-diff.ts': ['site-redirect'],
  'src/kinds/site-structure-config.ts': [
    'site-section',
    'site-space',
    'site-section-group',
    'site-customization',
  ],
  'src/kinds/site-structure-export.ts': ['site-section', 'site-space', 'site-section-group'],
};
const ABOUT_OTHERS: Record<string, string[]> = Object.fromEntries([
  ...[...GRANT_FILES, ...ACCESS_FILES].map((f) => [f, ['space', 'collection', 'site', 'team', 'member']]),
  ...STRUCTURE_DIFF_PARTS.map((f) => [f, ['site-section', 'site-space']]),
  ...TREE_PARTS.map((f) => [f, TREE_KINDS]),
  ...Object.entries(KIND_PARTS),
]);

describe('one kind, one module', () => {
  const spread = kindSpread(ROOT);

  it('has spellings for every kind of the plan, derived from its module unless it needs more', () => {
    expect(Object.keys(KIND_SPELLINGS).sort()).toEqual([...resourceKinds].sort());
    expect(Object.keys(EXPLICIT_SPELLINGS).filter((k) => !resourceKinds.includes(k as never))).toEqual([]);
  });

  it.each(Object.keys(KIND_SPELLINGS))('%s is named in at most five source files', (kind) => {
    const modules = spread[kind]!.filter((f) => f.startsWith('src/kinds/') && !SHARED.includes(f));
    expect(modules.length, `${kind}: its module in src/kinds/`).toBeGreaterThan(0);
    const counted = spread[kind]!.filter((f) => !(ABOUT_OTHERS[f] ?? []).includes(kind));
    expect(counted.length, counted.join('\n')).toBeLessThanOrEqual(LIMIT);
  });

  it('test helpers and scripts name no kind: they take kinds from the registry', () => {
    const naming = helpersNamingKinds(ROOT);
    expect(Object.keys(naming).filter((f) => !(f in HELPERS_NAMING_KINDS))).toEqual([]);
    // An exception that no longer names a kind is removed from the list.
    expect(Object.keys(HELPERS_NAMING_KINDS).filter((f) => !(f in naming))).toEqual([]);
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
