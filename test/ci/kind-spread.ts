import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * How many non-test source files under src/ (the emulator aside) name each kind. A kind is
 * recognised by its identifiers: the plan's kebab name and routes (`share-link`, `/share-links`),
 * the camel and Pascal names of its code (`shareLink`, `DesiredShareLink`), its operation types
 * (`create-share-link`). Comments are not counted, nor prose (`share link` in a CLI help line, a
 * heading `Site navigation`: a capitalised word followed by a lowercase one), nor
 * a parent's segment in a child's route (`/sites/{site}/share-links` names the share link), nor a
 * site space's `space` key in a path or index (`[..., 'space']`, `after['space']`).
 */
export const KIND_SPELLINGS: Record<string, RegExp> = {
  site: /(?<![A-Za-z])(?:Desired|Live)?Site(?:s|Op|Kind|Schema)?(?![A-Za-z]| [a-z])|(?:'|(?:create|update|delete|move|remove)-)site'|\/sites\b(?!\/\{site\}\/)|siteKind/,
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
  'saml-provider': /saml|Saml|SAML/,
  translation: /translation|Translation/,
  'site-adaptive-schema': /adaptiveSchema|AdaptiveSchema|adaptive-schema/,
  'site-publication': /publish|Publish|publication|Publication/,
};

/** The code of a file without its comments (a `//` inside a string, such as a URL, is kept). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
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
    text: withoutComments(readFileSync(f, 'utf8')),
  }));
  return Object.fromEntries(
    Object.entries(KIND_SPELLINGS).map(([kind, re]) => [
      kind,
      files.filter((f) => re.test(f.text)).map((f) => f.path),
    ]),
  );
}

if (process.argv[1]?.endsWith('kind-spread.ts')) {
  const spread = kindSpread(process.argv[2] ?? process.cwd());
  for (const [kind, files] of Object.entries(spread))
    process.stdout.write(`${kind}: ${files.length}${process.argv[3] ? `  ${files.join(' ')}` : ''}\n`);
}
