import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inviteLinkKind } from '../../src/kinds/invite-link.js';
import { KIND_SPELLINGS, withoutProse } from './kind-spread.js';

/**
 * Decision 20's recipe for a plain list kind is true: one file, one registry line, `npm run
 * generate`. Invite links were added that way: outside its module and the registry, no source file,
 * test helper, CI test or script names the kind (the generated files, docs/ and schema/, and its own
 * integration test aside). Its operation union, config key, flavors, emulator routes and spellings
 * all come from its module through the registry.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const MODULE = 'src/kinds/invite-link.ts';
const REGISTRY = 'src/kinds/registry.ts';

const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const name = camel(inviteLinkKind.kind);
const segment = inviteLinkKind.emulator!.routes.list.split('/').pop()!;
/**
 * The kind's names in code: its kebab name (operations, addresses), its camel and Pascal names
 * (`inviteLinkKind`, `DesiredInviteLink`) and its route (`link-invites`). Not the word `inviteLinks`:
 * that is also the settings switch that allows invite links (`settings.inviteLinks`), and the
 * official API's `viewInviteLinks` permission.
 */
const NAMED = new RegExp(
  `${inviteLinkKind.kind}|(?<![A-Za-z])(?:Desired|Live)?(?:${name}|${name[0]!.toUpperCase()}${name.slice(1)})(?!s(?![A-Za-z]))|${segment}`,
);

function files(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(join(ROOT, path)).isDirectory()) return files(path, keep);
    return /\.(?:ts|mts|mjs)$/.test(entry) && keep(path) ? [path] : [];
  });
}

const code = (path: string) => withoutProse(readFileSync(join(ROOT, path), 'utf8'));
const naming = (paths: string[]) => paths.filter((p) => NAMED.test(code(p)));

describe('a plain list kind is one file and one registry line (invite links)', () => {
  it('the spelling finds the kind where it is named, and not the settings switch', () => {
    for (const s of [
      'create-invite-link',
      'inviteLinkKind',
      'DesiredInviteLink',
      "'/orgs/{org}/link-invites'",
    ])
      expect(NAMED.test(s), s).toBe(true);
    for (const s of ['inviteLinks: z.boolean()', 'viewInviteLinks: true'])
      expect(NAMED.test(s), s).toBe(false);
    // kind-spread's spelling of the kind is derived from the module (no entry of its own).
    for (const s of ['create-invite-link', 'DesiredInviteLink', "'/orgs/{org}/link-invites'"])
      expect(KIND_SPELLINGS[inviteLinkKind.kind]!.test(s), s).toBe(true);
  });

  it('no source file names it but its module and the registry (the emulator included)', () => {
    expect(naming(files('src', (p) => !p.endsWith('.test.ts'))).sort()).toEqual([MODULE, REGISTRY]);
  });

  it('the registry names it on two lines: its import and its entry in listKinds', () => {
    const lines = code(REGISTRY)
      .split('\n')
      .filter((line) => NAMED.test(line));
    expect(lines.map((l) => l.trim())).toEqual([
      "import { inviteLinkKind } from './invite-link.js';",
      'inviteLinkKind,',
    ]);
  });

  it('no test helper, golden or CI test, or script names it: they take kinds from the registry', () => {
    const self = 'test/ci/new-kind-recipe.test.ts';
    const helpers = ['test/helpers', 'test/golden', 'test/ci', 'scripts'].flatMap((d) =>
      files(d, (p) => p !== self),
    );
    expect(naming(helpers)).toEqual([]);
  });
});
