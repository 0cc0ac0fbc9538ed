// `npm run bundle`: the GitHub Action as one file, dist-action/index.js (esbuild), which the runner
// starts with its own Node.js 24: nothing is installed when a workflow `uses:` the action.
//
//   node scripts/bundle-action.mjs [--outfile FILE] [--commit SHA]
//   node scripts/bundle-action.mjs --check [--outfile FILE]   exit 1 when FILE differs from a fresh build
//
// Deterministic: the same sources, lockfile and commit give the same bytes (no source map, no
// absolute paths, no time), which test/ci/action-bundle.test.ts checks. The commit it embeds (what
// `docsync version` and the action's first line print) is --commit, else DOCSYNC_BUILD_COMMIT, else
// git's HEAD, else none. The first line of the bundle names it, so that a checked-in bundle can be
// rebuilt from the same commit and compared.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { currentCommit } from './build-info.mjs';
import { REQUIRE_SHIM, ROOT, bundleOptions } from './esbuild-options.mjs';
import { NOTICES_FILE, thirdPartyNotices } from './notices.mjs';

export const BUNDLE = join(ROOT, 'dist-action', 'index.js');
const HEADER = '// docsync GitHub Action bundle (npm run bundle), built from commit ';

/** The commit a bundle names on its first line (undefined: none). */
export function bundleCommit(text) {
  if (!text.startsWith(HEADER)) return undefined;
  const commit = text.slice(HEADER.length, text.indexOf('\n')).trim();
  return commit === 'unknown' ? undefined : commit;
}

/**
 * esbuild's options for the bundle: one file, as the runner starts it, readable, without a source
 * map (the options the CLI shares otherwise: scripts/esbuild-options.mjs). Exported for the tests'
 * set-up (test/global-setup.ts), which adds a metafile to know what the bundle read.
 */
export function actionBuildOptions({ outfile = BUNDLE, commit } = {}) {
  return {
    ...bundleOptions({ commit: commit ?? 'unknown' }),
    entryPoints: ['src/action/index.ts'],
    outfile,
    target: 'node24',
    legalComments: 'eof',
    banner: {
      js: [
        `${HEADER}${commit ?? 'unknown'}`,
        '// Do not edit: the release workflow builds and commits it to the tag; main does not track it.',
        REQUIRE_SHIM,
      ].join('\n'),
    },
  };
}

export async function bundleAction({ outfile = BUNDLE, commit = currentCommit(ROOT) } = {}) {
  mkdirSync(dirname(outfile), { recursive: true });
  const { metafile } = await build({ ...actionBuildOptions({ outfile, commit }), metafile: true });
  // The licences of the packages inside, beside the bundle (committed to the tag with it).
  await writeFile(join(dirname(outfile), NOTICES_FILE), thirdPartyNotices(ROOT, metafile));
  return outfile;
}

/**
 * Whether a built bundle (by default the checked-in one), and its notices beside it, equal a fresh
 * build from the sources here and the commit it names. The release workflow runs it after committing the bundle to the tag.
 * `fresh`: the index.js of a build made already from that commit, its notices beside it (tests
 * comparing several bundles with one build); by default one is built now.
 */
export async function checkBundle(file = BUNDLE, { fresh } = {}) {
  const text = await readFile(file, 'utf8');
  const commit = bundleCommit(text);
  const dir = fresh ? undefined : await mkdtemp(join(tmpdir(), 'docsync-bundle-check-'));
  try {
    const built = fresh ?? (await bundleAction({ outfile: join(dir, 'index.js'), commit }));
    // Its notices too, when they are beside it (the release commits both).
    const notices = join(dirname(file), NOTICES_FILE);
    const sameNotices =
      !existsSync(notices) ||
      (await readFile(notices, 'utf8')) === (await readFile(join(dirname(built), NOTICES_FILE), 'utf8'));
    return { same: (await readFile(built, 'utf8')) === text && sameNotices, commit };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { outfile: { type: 'string' }, commit: { type: 'string' }, check: { type: 'boolean' } },
  });
  if (values.check) {
    const file = values.outfile ? resolve(values.outfile) : BUNDLE;
    const { same, commit } = await checkBundle(file);
    process.stdout.write(
      same
        ? `${file} is what the sources build (commit ${commit})\n`
        : `error: ${file} differs from a fresh build of the sources (commit ${commit}): run npm run bundle\n`,
    );
    process.exit(same ? 0 : 1);
  }
  const out = await bundleAction({
    ...(values.outfile ? { outfile: resolve(values.outfile) } : {}),
    ...(values.commit ? { commit: values.commit } : {}),
  });
  process.stdout.write(`${out}\n`);
}
