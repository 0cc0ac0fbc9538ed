import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledPackages, packagePlace, thirdPartyNotices } from '../../scripts/notices.mjs';
import { ROOT } from '../helpers/cli.js';

/** A package folder with its package.json and a licence naming it (the licence tells copies apart). */
function writePackage(dir: string, name: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, license: 'MIT' }));
  writeFileSync(join(dir, 'LICENSE'), `MIT License: ${name}@${version}\n`);
}

/** A metafile whose inputs are these files, relative to the build's working directory. */
const metafileOf = (inputs: string[]) =>
  ({ inputs: Object.fromEntries(inputs.map((i) => [i, {}])), outputs: {} }) as unknown as Metafile;

/** The metafiles of the CLI and the action bundled by test/global-setup.ts (`npm run build`'s options). */
const meta = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, '.test-dist', name, 'meta.json'), 'utf8')) as Metafile;

describe('third-party notices (scripts/notices.mjs): the licences of what a bundle carries', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'docsync-notices-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each(['bin', 'action'])(
    'names every package the %s bundle holds, with its licence text verbatim',
    (name) => {
      const metafile = meta(name);
      const packages = bundledPackages(metafile);
      // Wherever node_modules lies (a worktree's may be a symlink to another checkout's).
      expect(packages.map(packagePlace)).toContain('node_modules/undici');
      expect(packages.map(packagePlace)).toContain('node_modules/zod');
      const text = thirdPartyNotices(ROOT, metafile);
      for (const folder of packages) {
        const pkg = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
          name: string;
          version: string;
        };
        expect(text).toContain(`${pkg.name}@${pkg.version} (`);
      }
      // A licence file is carried as written (here undici's, MIT).
      const undiciLicence = readFileSync(join(ROOT, 'node_modules/undici/LICENSE'), 'utf8').trimEnd();
      expect(text).toContain(undiciLicence);
      // The same inputs, the same bytes (the action's notices are committed to the release tag).
      expect(thirdPartyNotices(ROOT, metafile)).toBe(text);
    },
  );

  it('writes the same notices whether node_modules is a folder, a symlink elsewhere or pnpm\u2019s store', () => {
    // A normal checkout: every package in the repository's node_modules, a nested copy in its
    // dependant's.
    const folder = join(tmp, 'folder', 'repo');
    const packages: [dir: string, name: string, version: string][] = [
      ['a', 'a', '1.0.0'],
      ['a/node_modules/c', 'c', '2.0.0'],
      ['@s/b', '@s/b', '1.0.0'],
      ['c', 'c', '1.0.0'],
      ['m', 'm', '1.0.0'],
      ['z', 'z', '1.0.0'],
    ];
    for (const [dir, name, version] of packages)
      writePackage(join(folder, 'node_modules', dir), name, version);
    const flat = metafileOf([
      'src/cli.ts',
      'node_modules/z/index.js',
      'node_modules/a/index.js',
      'node_modules/a/node_modules/c/index.js',
      'node_modules/@s/b/lib/x.js',
      'node_modules/c/index.js',
      'node_modules/m/index.js',
    ]);
    // The same packages, as esbuild names them once it has resolved the links: a node_modules
    // that is a symlink to another checkout (../../elsewhere/node_modules/...), and pnpm's store.
    const linked = join(tmp, 'linked', 'work', 'repo');
    const elsewhere = join(tmp, 'linked', 'elsewhere', 'node_modules');
    const store = join(linked, 'node_modules', '.pnpm');
    writePackage(join(elsewhere, 'a'), 'a', '1.0.0');
    writePackage(join(elsewhere, 'a/node_modules/c'), 'c', '2.0.0');
    writePackage(join(elsewhere, '@s/b'), '@s/b', '1.0.0');
    writePackage(join(store, 'c@1.0.0/node_modules/c'), 'c', '1.0.0');
    writePackage(join(store, 'm@1.0.0/node_modules/m'), 'm', '1.0.0');
    writePackage(join(elsewhere, 'z'), 'z', '1.0.0');
    const symlinked = metafileOf([
      'src/cli.ts',
      '../../elsewhere/node_modules/z/index.js',
      '../../elsewhere/node_modules/a/index.js',
      '../../elsewhere/node_modules/a/node_modules/c/index.js',
      '../../elsewhere/node_modules/@s/b/lib/x.js',
      'node_modules/.pnpm/c@1.0.0/node_modules/c/index.js',
      'node_modules/.pnpm/m@1.0.0/node_modules/m/index.js',
    ]);
    expect(bundledPackages(symlinked)).toEqual([
      '../../elsewhere/node_modules/@s/b',
      '../../elsewhere/node_modules/a',
      '../../elsewhere/node_modules/a/node_modules/c',
      'node_modules/.pnpm/c@1.0.0/node_modules/c',
      'node_modules/.pnpm/m@1.0.0/node_modules/m',
      '../../elsewhere/node_modules/z',
    ]);
    const text = thirdPartyNotices(folder, flat);
    expect(text).toContain('MIT License: c@2.0.0');
    expect(thirdPartyNotices(linked, symlinked)).toBe(text);
  });

  it('counts two copies of a package in pnpm\u2019s store as two packages', () => {
    const root = join(tmp, 'pnpm', 'repo');
    writePackage(join(root, 'node_modules/.pnpm/d@1.0.0/node_modules/d'), 'd', '1.0.0');
    writePackage(join(root, 'node_modules/.pnpm/d@2.0.0/node_modules/d'), 'd', '2.0.0');
    const metafile = metafileOf([
      'node_modules/.pnpm/d@2.0.0/node_modules/d/index.js',
      'node_modules/.pnpm/d@1.0.0/node_modules/d/index.js',
    ]);
    expect(bundledPackages(metafile)).toEqual([
      'node_modules/.pnpm/d@1.0.0/node_modules/d',
      'node_modules/.pnpm/d@2.0.0/node_modules/d',
    ]);
    const text = thirdPartyNotices(root, metafile);
    expect(text.indexOf('MIT License: d@1.0.0')).toBeGreaterThan(0);
    expect(text.indexOf('MIT License: d@2.0.0')).toBeGreaterThan(text.indexOf('MIT License: d@1.0.0'));
  });

  it('refuses a bundled package with no licence file, naming it', () => {
    const root = join(tmp, 'repo');
    cpSync(
      join(ROOT, 'node_modules/atomic-sleep/package.json'),
      join(root, 'node_modules/atomic-sleep/package.json'),
    );
    const metafile = {
      inputs: { 'node_modules/atomic-sleep/index.js': {} },
      outputs: {},
    } as unknown as Metafile;
    expect(() => thirdPartyNotices(root, metafile)).toThrow(
      /^node_modules\/atomic-sleep \(atomic-sleep@[\d.]+\) has no licence file/,
    );
  });

  it('counts a nested copy as its own package and skips plugins\u2019 virtual modules', () => {
    const metafile = {
      inputs: {
        'src/cli.ts': {},
        'node_modules/a/index.js': {},
        'node_modules/a/node_modules/@s/b/lib/x.js': {},
        'zod-locales:zod/v4/locales/index.js': {},
      },
      outputs: {},
    } as unknown as Metafile;
    expect(bundledPackages(metafile)).toEqual(['node_modules/a', 'node_modules/a/node_modules/@s/b']);
  });
});
