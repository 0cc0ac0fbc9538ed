import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
export const KIND_SPELLINGS: Record<string, RegExp> = {
  site: /(?<![A-Za-z])(?:Desired|Live)?Site(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?:'|(?:create|update|delete|move|remove)-)site'|\/sites\b(?!\/\{site\}\/)|siteKind/,
  'site-section':
    /(?<!Group)Section(?:s)?(?![A-Za-z])|(?:'|(?:create|update|delete|move|remove)-)section'|site-section'|\/sections\b|sectionKind/,
  'site-section-group': /sectionGroup|SectionGroup|section-group(?!-membership)/,
  'section-group-membership': /group-section'|section-group-membership|GroupMembership|groupMembership/,
  'site-space': /siteSpace|SiteSpace|site-space/,
  'share-link': /shareLink|ShareLink|share-links|-share-link/,
  'custom-field':
    /(?<!space-)custom-field(?!s')|(?<![A-Za-z])(?:Desired|Live)?CustomField(?:s|Op|Kind|Schema|Type|Value)?(?![A-Za-z])|customField(?!Value)/,
  'space-custom-fields': /space-custom-fields|SpaceCustomFields|spaceCustomFields/,
  team: /(?<![A-Za-z])(?:Desired|Live)?Team(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?:'|(?:create|update|delete|move|remove)-)team'|\/teams\b|teamKind/,
  'team-members': /team-members|TeamMembers?(?![a-z])|teamMembers/,
  organization:
    /update-organization|OrganizationOp|organizationKind|SettingsSchema|DesiredSettings|LiveSettings/,
  member:
    /(?<![A-Za-z])(?:Desired|Live)?Member(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?:update|remove)-member'|memberKind/,
  collection: /Collection|(?:'|(?:create|update|delete|move|remove)-)collection'|\/collections\b/,
  space:
    /(?<![A-Za-z])(?:Desired|Live)?Space(?:s|Op|Kind|Schema)?(?![A-Za-z])|(?<!\[)'space'(?!\])|(?:create|update|delete|move|remove)-space'|spaceKind/,
  'openapi-spec': /openapi|OpenApi|openApi/,
  'invite-link': /inviteLink|InviteLink|invite-link|link-invites/,
  'saml-provider': /saml|Saml|SAML/,
  translation: /translation|Translation/,
  'site-adaptive-schema': /adaptiveSchema|AdaptiveSchema|adaptive-schema/,
  'site-publication': /publish|Publish|publication|Publication/,
};

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
  const out = [...text];
  const blankIfProse = (from: number, to: number) => {
    if (/\s/.test(text.slice(from, to))) for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
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
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') out[i++] = ' ';
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i += 1) if (out[i] !== '\n') out[i] = ' ';
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
      if (!/\s/.test(c)) last = c;
      i += 1;
    }
  }
  return out.join('');
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
