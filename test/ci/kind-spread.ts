import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { kindModules } from '../../src/kinds/registry.js';

/**
 * How many non-test source files under src/ (the emulator aside) name each kind. A kind is
 * recognised by its identifiers: the plan's kebab name and routes (`share-link`, `/share-links`),
 * the camel and Pascal names of its code (`shareLink`, `DesiredShareLink`), its operation types
 * (`create-share-link`). Comments are not counted, nor prose: the text of a string or template
 * that holds a space (`'Site navigation'`, a CLI help line); identifiers, routes and kind names
 * never do. Nor
 * a parent's segment in a child's route (`/sites/{site}/share-links` names the share link), nor a
 * site space's `space` key in a path or index (`[..., 'space']`, `after['space']`).
 */

/** A kind's module, as far as its spellings go. */
type Spelled = { kind: string; key?: unknown; emulator?: { routes: { list: string } } };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The spellings a kind gets from its module alone: its kebab name (`invite-link`, which also finds
 * `invite-links` and `create-invite-link`), its camel and Pascal forms (`inviteLink`,
 * `DesiredInviteLink`), its config key (`openapi`) and the last segment of its declared list route
 * (`/link-invites`). A new kind needs no entry here.
 */
export function defaultSpelling(module: Spelled): RegExp {
  const name = camel(module.kind);
  const parts = [escape(module.kind), name, name[0]!.toUpperCase() + name.slice(1)];
  if (typeof module.key === 'string') parts.push(escape(module.key));
  const segment = module.emulator?.routes.list
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .pop();
  if (segment) parts.push(escape(`/${segment}`));
  return new RegExp([...new Set(parts)].join('|'));
}

/**
 * Kinds whose default spelling is wrong or too narrow, each with why: one-word kinds (a plain word
 * of many files), kinds the code calls by a shorter name, and names two kinds share.
 */
export const EXPLICIT_SPELLINGS: Record<string, RegExp> = {
  // a one-word kind: `site` is a parameter and a word of many files; its typed names, operations and route count
  site: /(?<![A-Za-z])(?:Desired|Live)?Site(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?:'|(?:create|update|delete|move|remove)-)site'|\/sites\b(?!\/\{site\}\/)|siteKind/,
  // the code says `Section`, not `SiteSection` (a section group's name is not a section)
  'site-section':
    /(?<!Group)Section(?:s)?(?![A-Za-z])|(?:'|(?:create|update|delete|move|remove)-)section'|site-section'|\/sections\b|sectionKind/,
  // the code says `SectionGroup`; `section-group-membership` is another kind
  'site-section-group': /sectionGroup|SectionGroup|section-group(?!-membership)/,
  // the code says `GroupMembership` and `group-section`
  'section-group-membership': /group-section'|section-group-membership|GroupMembership|groupMembership/,
  // `'share-link'` is also a site's visibility value, not the kind
  'share-link': /shareLink|ShareLink|share-links|-share-link/,
  // its key `customFields` is also a space's facet key (`space-custom-fields`)
  'custom-field':
    /(?<!space-)custom-field(?!s')|(?<![A-Za-z])(?:Desired|Live)?CustomField(?:s|Op|Kind|Schema|Type|Value)?(?![A-Za-z])|customField(?!Value)/,
  // its key `customFields` is also the custom field kind's list
  'space-custom-fields': /space-custom-fields|SpaceCustomFields|spaceCustomFields/,
  // every file names an organization; the kind is the settings object
  organization:
    /update-organization|OrganizationOp|organizationKind|SettingsSchema|DesiredSettings|LiveSettings/,
  // a one-word kind: `members` are also a team's and a coordination group's
  member:
    /(?<![A-Za-z])(?:Desired|Live)?Member(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?:update|remove)-member'|memberKind/,
  // a one-word kind: the default also finds the config tree's `collections` key, walked by loader and export
  collection: /Collection|(?:'|(?:create|update|delete|move|remove)-)collection'|\/collections\b/,
  // a one-word kind: `space` is a site space's key and a word of many files
  space:
    /(?<![A-Za-z])(?:Desired|Live)?Space(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?<!\[)'space'(?!\])|(?:create|update|delete|move|remove)-space'|spaceKind/,
  // a one-word kind: `team` is a word of notification providers and access
  team: /(?<![A-Za-z])(?:Desired|Live)?Team(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?:'|(?:create|update|delete|move|remove)-)team'|\/teams\b|teamKind/,
  // the code says publish, published, publication; not `publishing` (the visitor auth's route, `…/publishing/auth`),
  // nor the string values `'publish'` and `'published'`, a bulk redirect call's intent and status
  'site-publication': /publish(?!ing|(?:ed)?')|Publish(?!ing)|publication|Publication/,
  // the grant kinds share their config key `access` (also the effective-access code's word): their names only
  'space-grant': /space-grant|spaceGrant|SpaceGrant/,
  'collection-grant': /collection-grant|collectionGrant|CollectionGrant/,
  'site-grant': /site-grant|siteGrant|SiteGrant/,
  // `customization` is also the key of a site space's overrides (the site-space module's, decision 0037):
  // the kind is its module's names and the site's route
  'site-customization': /site-customization|siteCustomization|SiteCustomization|\{site\}\/customization/,
  // `redirects` is also the plan's list of the redirects it adds for changed paths (decision 36), which
  // the plan's types and renderers name: the kind is its module's names, operations and route
  'site-redirect': /site-redirect|siteRedirect|SiteRedirect|\/redirects\b/,
};

export const KIND_SPELLINGS: Record<string, RegExp> = Object.fromEntries(
  (kindModules as readonly Spelled[]).map((m) => [m.kind, EXPLICIT_SPELLINGS[m.kind] ?? defaultSpelling(m)]),
);

/** The code of a file without its comments (a `//` inside a string, such as a URL, is kept). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/**
 * The code of a file without its prose: the text of every string literal and template chunk that
 * holds whitespace becomes spaces (line breaks kept). A small lexer: quotes, templates with nested
 * `${…}`, comments and regular expression literals (after an operator or an opening bracket).
 */
export function withoutProse(text: string): string {
  // Ranges [from, to) that become spaces (line breaks kept), in order; the text between them is
  // copied as it is. Plain code is skipped to the next character that can start or end something
  // (a regular expression's search, not a step per character: the first run of this lexer over
  // src/, before V8 optimizes it, was most of this file's CPU).
  const blanks: number[] = [];
  const blank = (from: number, to: number) => void blanks.push(from, to);
  const blankIfProse = (from: number, to: number) => {
    if (/\s/.test(text.slice(from, to))) blank(from, to);
  };
  const braces: number[] = []; // open `{` counts, one per template `${` we are inside
  let i = 0;
  let last = ''; // the last significant code character
  const inTemplate = (start: number) => {
    // Reads template text from `start` to its end or to `${`; returns where it stopped.
    let j = start;
    while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{'))
      j += text[j] === '\\' ? 2 : 1;
    blankIfProse(start, j);
    if (text[j] === '`') return j + 1;
    braces.push(0);
    return j + 2;
  };
  const special = /[/'"`{}]/g;
  while (i < text.length) {
    special.lastIndex = i;
    const at = special.exec(text)?.index ?? text.length;
    // Plain code up to `at`: only its last significant character matters.
    for (let k = at - 1; k >= i; k -= 1)
      if (!/\s/.test(text[k]!)) {
        last = text[k]!;
        break;
      }
    i = at;
    if (i >= text.length) break;
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blankIfProse(i + 1, j);
      i = j + 1;
      last = c;
    } else if (c === '`') {
      i = inTemplate(i + 1);
      last = '`';
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last))) {
      let j = i + 1;
      let cls = false;
      while (j < text.length && text[j] !== '\n' && (cls || text[j] !== '/')) {
        if (text[j] === '[') cls = true;
        else if (text[j] === ']') cls = false;
        j += text[j] === '\\' ? 2 : 1;
      }
      i = j + 1;
      last = '/';
    } else {
      if (braces.length > 0 && c === '{') braces[braces.length - 1]! += 1;
      if (braces.length > 0 && c === '}') {
        if (braces[braces.length - 1] === 0) {
          braces.pop();
          i = inTemplate(i + 1);
          last = '`';
          continue;
        }
        braces[braces.length - 1]! -= 1;
      }
      last = c;
      i += 1;
    }
  }
  let out = '';
  let from = 0;
  for (let k = 0; k < blanks.length; k += 2) {
    const [a, b] = [Math.min(blanks[k]!, text.length), Math.min(blanks[k + 1]!, text.length)];
    out += text.slice(from, a) + text.slice(a, b).replace(/[^\n]/g, ' ');
    from = Math.max(from, b);
  }
  return out + text.slice(from);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'emulator' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** For each kind, the files (relative to `root`) that name it. */
export function kindSpread(root: string): Record<string, string[]> {
  const files = sourceFiles(join(root, 'src')).map((f) => ({
    path: relative(root, f),
    text: withoutProse(readFileSync(f, 'utf8')),
  }));
  return Object.fromEntries(
    Object.entries(KIND_SPELLINGS).map(([kind, re]) => [
      kind,
      files.filter((f) => re.test(f.text)).map((f) => f.path),
    ]),
  );
}

/**
 * The test helpers and scripts (test/helpers/, scripts/) that name a kind, each with the kinds it
 * names: they should take kinds from the registry instead (issue 28).
 */
export function helpersNamingKinds(root: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const dir of ['test/helpers', 'scripts'])
    for (const name of readdirSync(join(root, dir))) {
      if (!/\.(?:ts|mts|mjs)$/.test(name)) continue;
      const text = withoutProse(readFileSync(join(root, dir, name), 'utf8'));
      const kinds = Object.entries(KIND_SPELLINGS)
        .filter(([, re]) => re.test(text))
        .map(([kind]) => kind);
      if (kinds.length > 0) out[`${dir}/${name}`] = kinds;
    }
  return out;
}

if (process.argv[1]?.endsWith('kind-spread.ts')) {
  const spread = kindSpread(process.argv[2] ?? process.cwd());
  for (const [kind, files] of Object.entries(spread))
    process.stdout.write(`${kind}: ${files.length}${process.argv[3] ? `  ${files.join(' ')}` : ''}\n`);
}
