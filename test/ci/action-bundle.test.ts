import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE, bundleAction, bundleCommit, checkBundle } from '../../scripts/bundle-action.mjs';
import { TEST_ACTION_COMMIT } from '../global-setup.js';
import { ROOT } from '../helpers/cli.js';

const tracked = (file: string) =>
  execFileSync('git', ['ls-files', '--', file], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';

describe('the action bundle (dist-action/index.js) is what the sources build', () => {
  it('builds deterministically: the same sources and commit give the same bytes, naming the commit; one changed byte is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-bundle-'));
    // The first build: test/global-setup.ts's (bundleAction's options, in another process), else one here.
    const shared = process.env['DOCSYNC_TEST_ACTION'];
    const commit = shared ? TEST_ACTION_COMMIT : 'feedfacefeedfacefeedfacefeedfacefeedface';
    const built = join(dir, 'index.js');
    if (shared) copyFileSync(shared, built);
    else await bundleAction({ outfile: built, commit });
    const first = readFileSync(built, 'utf8');
    expect(bundleCommit(first)).toBe(commit);
    // No absolute path of this machine leaks into it (the bytes would differ on another).
    expect(first).not.toContain(ROOT);
    expect(first).not.toContain(tmpdir());
    // A second build from the named commit gives the same bytes: what the release runs after
    // committing the bundle (checkBundle rebuilds and compares byte for byte; its own build is the
    // release dry run's, test/ci/release.test.ts). One build here for both comparisons.
    const fresh = await bundleAction({ outfile: join(dir, 'fresh', 'index.js'), commit });
    expect(await checkBundle(built, { fresh })).toEqual({ same: true, commit });
    writeFileSync(built, first.replace('docsync action', 'docsync  action'));
    expect(await checkBundle(built, { fresh })).toEqual({ same: false, commit });
  }, 60_000);

  it.runIf(tracked('dist-action/index.js'))(
    'the checked-in bundle (a release tag) equals a fresh build from the commit it names',
    async () => {
      const checkedIn = readFileSync(BUNDLE, 'utf8');
      const commit = bundleCommit(checkedIn);
      expect(commit, 'the checked-in bundle names no commit').toBeDefined();
      const fresh = await bundleAction({
        outfile: join(mkdtempSync(join(tmpdir(), 'docsync-bundle-')), 'index.js'),
        commit,
      });
      expect(
        readFileSync(fresh, 'utf8') === checkedIn,
        'dist-action/index.js differs from its sources: npm run bundle',
      ).toBe(true);
    },
    60_000,
  );

  it('main does not track it (release tags do): .gitignore keeps it out', () => {
    const ignored = execFileSync('git', ['check-ignore', '--no-index', 'dist-action/index.js'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    expect(ignored).toBe('dist-action/index.js');
    expect(existsSync(join(ROOT, 'scripts/bundle-action.mjs'))).toBe(true);
  });
});
