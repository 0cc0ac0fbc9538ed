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
 * The package folders a metafile's inputs come from, relative to the build's working directory
 * (esbuild's `absWorkingDir`, where the metafile's paths start): each input up to its last
 * `node_modules/<name>` or `node_modules/@scope/name`. `node_modules/a`, `node_modules/@s/b`,
 * `node_modules/a/node_modules/c` (a nested copy is its own package); esbuild resolves symlinks, so
 * a node_modules that links to another checkout gives `../../main/node_modules/a`, and pnpm's store
 * `node_modules/.pnpm/a@1.0.0/node_modules/a`. In the order of their places (`packagePlace`).
 */
export function bundledPackages(metafile) {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf('node_modules/');
    if (at < 0 || input.includes(':')) continue;
    const name = /^(@[^/]+\/)?[^/]+/.exec(input.slice(at + 'node_modules/'.length));
    if (name) folders.add(input.slice(0, at) + 'node_modules/' + name[0]);
  }
  return [...folders]
    .map((folder) => ({ folder, place: packagePlace(folder) }))
    .sort((x, y) => compare(x.place, y.place) || compare(x.folder, y.folder))
    .map((p) => p.folder);
}

/**
 * Where a package folder stands among the others: the packages on its path alone,
 * `node_modules/a/node_modules/c`, without what lies before its first node_modules (a symlinked
 * node_modules, a linked workspace) or pnpm's store folders (`.pnpm/a@1.0.0`, not a package name).
 * The same packages give the same order, so the same notices, wherever node_modules lies; a
 * normal checkout's place is its folder.
 */
export function packagePlace(folder) {
  const names = [...folder.matchAll(/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/g)].map((m) => m[1]);
  return names
    .filter((name) => !name.startsWith('.'))
    .map((name) => `node_modules/${name}`)
    .join('/');
}

/** The order of `Array.prototype.sort` without a comparer (UTF-16 code units), which it kept. */
const compare = (x, y) => (x < y ? -1 : x > y ? 1 : 0);

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
 * The notices text for a bundle built in `root` (its working directory) with `metafile`: one
 * section per bundled package (name, version, licence, then its licence and notice files
 * verbatim). Deterministic: the same packages give the same bytes. Throws when a package has no
 * licence file, so that a build never ships code whose licence it cannot reproduce.
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
