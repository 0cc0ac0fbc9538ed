import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TEST_PEM } from '../../test/helpers/certificates.js';
import { validateCommand } from '../cli/validate.js';
import { formatIssue } from './issues.js';
import { loadConfig } from './load.js';

const base = mkdtempSync(join(tmpdir(), 'docsync-config-folder-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A repository with `config/` and `shared/`, the files given written under it. */
function repo(name: string, files: Record<string, string>): string {
  const root = join(base, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const TEAMS = 'organization: org_a\npolicy: { prune: true }\nteams:\n  - title: Writers\n';
const MORE = 'organization: org_a\nteams:\n  - title: Reviewers\n';

describe('the config folder: nothing is skipped silently', () => {
  it('refuses a symlinked file whose target lies outside the config folder (prune would delete its teams)', async () => {
    const root = repo('outside', { 'config/teams.yaml': TEAMS, 'shared/more-teams.yaml': MORE });
    symlinkSync('../shared/more-teams.yaml', join(root, 'config', 'more-teams.yaml'));
    const result = await loadConfig(join(root, 'config'), root);
    expect(result.desired).toBeNull();
    expect(result.issues.map(formatIssue)).toEqual([
      'config/more-teams.yaml:1:1: error[config-symlink] symbolic link to ../shared/more-teams.yaml, outside the config folder: links are followed only to files inside it',
    ]);
  });
  it('follows a symlink to a file or folder inside the config folder, reading each file once', async () => {
    const root = repo('inside', { 'config/teams.yaml': TEAMS, 'config/parts/more-teams.yaml': MORE });
    symlinkSync('parts/more-teams.yaml', join(root, 'config', 'more.yaml'));
    symlinkSync('parts', join(root, 'config', 'again'));
    const result = await loadConfig(join(root, 'config'), root);
    expect(result.issues).toEqual([]);
    expect(result.files).toEqual(['config/parts/more-teams.yaml', 'config/teams.yaml']);
    expect(result.desired!.organizations[0]!.teams!.map((t) => t.title)).toEqual(['Reviewers', 'Writers']);
  });
  it('refuses a broken link and a special file; warns about every other file it does not read', async () => {
    const root = repo('others', {
      'config/teams.yaml': TEAMS,
      'config/README.md': '# config\n',
      'config/.hidden.yaml': MORE,
      'config/.github/x.yaml': MORE,
      'config/node_modules/x.yaml': MORE,
      'config/docsync.schema.json': '{}',
      'config/.git/config': '[core]\n',
      'config/saml.yaml':
        'organization: org_a\nsaml:\n  - label: Okta\n    certificate: { file: certs/okta.pem }\n',
      'config/certs/okta.pem': TEST_PEM,
      'config/certs/old.pem': TEST_PEM,
    });
    symlinkSync('nowhere.yaml', join(root, 'config', 'broken.yaml'));
    execFileSync('mkfifo', [join(root, 'config', 'pipe.yaml')]);
    const result = await loadConfig(join(root, 'config'), root);
    expect(result.desired).toBeNull();
    expect(result.issues.map((i) => `${i.file} ${i.severity} ${i.code}`).sort()).toEqual([
      'config/.github warning not-config',
      'config/.hidden.yaml warning not-config',
      'config/README.md warning not-config',
      'config/broken.yaml error config-symlink',
      'config/certs/old.pem warning not-config',
      'config/node_modules warning not-config',
      'config/pipe.yaml error not-config',
    ]);
  });
  it('validate prints the warnings and stays valid when nothing is wrong', async () => {
    const root = repo('warn', { 'config/teams.yaml': TEAMS, 'config/notes.txt': 'x' });
    const result = await loadConfig(join(root, 'config'), root);
    expect(result.desired).not.toBeNull();
    expect(result.issues.map(formatIssue)).toEqual([
      'config/notes.txt:1:1: warning[not-config] not read: only *.yaml and *.yml files are config (and the files they name with file:)',
    ]);
  });
  it('docsync validate exits 1 on the outside link and prints the warnings', async () => {
    const root = repo('cli', {
      'config/teams.yaml': TEAMS,
      'config/notes.txt': 'x',
      'shared/more.yaml': MORE,
    });
    symlinkSync('../shared/more.yaml', join(root, 'config', 'more-teams.yaml'));
    const printed: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      printed.push(String(text));
      return true;
    });
    try {
      expect(await validateCommand({ config: join(root, 'config') })).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(printed.join('')).toMatch(/more-teams\.yaml:1:1: error\[config-symlink\]/);
    expect(printed.join('')).toMatch(/notes\.txt:1:1: warning\[not-config\]/);
  });
});

describe('the config folder at the repository root: VCS metadata is never config', () => {
  it.each([
    ['a file in .git', 'x.yaml', '.git/config'],
    ['the .git folder', 'y', '.git'],
    ['a folder in .git', 'hooks', '.git/hooks'],
    ['a file in another VCS folder', 'z.yaml', '.hg/hgrc.yaml'],
    ['a file through a folder above it', 'w.yaml', 'inner/../.git/config'],
  ])('refuses a link to %s, located', async (_name, link, target) => {
    const root = repo(`vcs-${link}`, {
      'teams.yaml': TEAMS,
      '.git/config': 'organization: org_a\nteams:\n  - title: FromGit\n',
      '.git/hooks/x.yaml': MORE,
      '.hg/hgrc.yaml': MORE,
      'inner/keep.txt': 'x',
    });
    symlinkSync(target, join(root, link));
    const result = await loadConfig(root, root);
    expect(result.desired).toBeNull();
    const errors = result.issues.filter((i) => i.severity === 'error').map(formatIssue);
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${link.replace('.', '\\.')}:1:1: error\\[config-symlink\\] symbolic link to .*, into version control metadata \\(\\.(git|hg)\\)`,
        ),
      ),
    ]);
  });
});

describe('a config file past the size limit', () => {
  it('is refused from its size alone, located, never read (a sparse 3 GiB file)', async () => {
    const root = repo('huge', { 'config/teams.yaml': TEAMS, 'config/huge.yaml': '' });
    truncateSync(join(root, 'config/huge.yaml'), 3 * 1024 ** 3);
    const result = await loadConfig(join(root, 'config'), root);
    expect(result.desired).toBeNull();
    expect(result.issues.map(formatIssue)).toEqual([
      `config/huge.yaml:1:1: error[file-too-large] file is ${3 * 1024 ** 3} bytes; the limit is 1048576 bytes`,
    ]);
  });
});
