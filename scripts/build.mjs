// `npm run build`: the shipped CLI, dist/cli.js, one esbuild bundle with its dependencies inside
// and a linked source map (scripts/esbuild-options.mjs; decision 45).
// The commit `docsync version` prints is embedded: DOCSYNC_BUILD_COMMIT (the image's build has no
// .git), else git's HEAD, else none. No type check: that is `npm run typecheck`.
//
//   node scripts/build.mjs [--outdir DIR]
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { currentCommit } from './build-info.mjs';
import { ROOT, cliOptions } from './esbuild-options.mjs';

export const DIST = join(ROOT, 'dist');

/** Build the CLI into `outdir` (emptied first: no file of an older build stays). */
export async function buildCli({ outdir = DIST, commit = currentCommit(ROOT) } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  return build(cliOptions({ outdir, commit: commit ?? 'unknown' }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  await buildCli(values.outdir ? { outdir: resolve(values.outdir) } : {});
}
