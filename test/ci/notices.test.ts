import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledPackages, thirdPartyNotices } from '../../scripts/notices.mjs';
import { ROOT } from '../helpers/cli.js';

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
      expect(packages).toContain('node_modules/undici');
      expect(packages).toContain('node_modules/zod');
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
