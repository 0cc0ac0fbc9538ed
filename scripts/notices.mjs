// The third-party notices of a bundle (docs/decisions/0047-third-party-notices.md): docsync's
// shipped programs (dist/docsync.cjs, the GitHub Action's dist-action/index.js) carry the code of
// the packages they bundle, and their licences (MIT, ISC, Apache-2.0) ask that a copy carry the
// copyright and licence text. esbuild's metafile lists every file a bundle read; the packages are
// the node_modules folders among them, each with its package.json and licence file.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The file a bundle's notices are written to, beside it. */
export const NOTICES_FILE = 'THIRD-PARTY-NOTICES.txt';

/**
 * The package folders (relative to `root`) a metafile's inputs come from: `node_modules/a`,
 * `node_modules/@s/b`, `node_modules/a/node_modules/c` (a nested copy is its own package).
 */
export function bundledPackages(metafile) {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf('node_modules/');
    if (at < 0 || input.includes(':')) continue;
    const name = /^(@[^/]+\/)?[^/]+/.exec(input.slice(at + 'node_modules/'.length));
    if (name) folders.add(input.slice(0, at) + 'node_modules/' + name[0]);
  }
  return [...folders].sort();
}

/** A package's licence and notice files (LICENSE, LICENCE.md, NOTICE...), in name order. */
function legalFiles(dir) {
  return readdirSync(dir)
    .filter((f) => /^(licen[cs]e|copying|notice)([-.][\w-]+)*(\.(md|markdown|txt))?$/i.test(f))
    .sort();
}

/** The licence a package.json declares: an SPDX expression, or the older object and list forms. */
function declaredLicence(pkg) {
  const one = (l) => (typeof l === 'string' ? l : typeof l?.type === 'string' ? l.type : undefined);
  if (pkg.license !== undefined) return one(pkg.license) ?? 'see below';
  if (Array.isArray(pkg.licenses)) return pkg.licenses.map(one).filter(Boolean).join(' OR ') || 'see below';
  return 'see below';
}

/**
 * The notices text for a bundle built from `root` with `metafile`: one section per bundled
 * package (name, version, licence, then its licence and notice files verbatim). Deterministic: the
 * same packages give the same bytes. Throws when a package has no licence file, so that a build
 * never ships code whose licence it cannot reproduce.
 */
export function thirdPartyNotices(root, metafile) {
  const sections = bundledPackages(metafile).map((folder) => {
    const dir = join(root, folder);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const files = legalFiles(dir);
    if (!files.some((f) => !/^notice/i.test(f)))
      throw new Error(`${folder} (${pkg.name}@${pkg.version}) has no licence file to carry in the bundle`);
    const texts = files.map((f) => readFileSync(join(dir, f), 'utf8').replace(/\r\n/g, '\n').trimEnd());
    return [`${pkg.name}@${pkg.version} (${declaredLicence(pkg)})`, '', ...texts].join('\n');
  });
  return (
    ['docsync bundles the following packages. Their licences and notices follow.', ...sections].join(
      `\n\n${'-'.repeat(78)}\n\n`,
    ) + '\n'
  );
}
