// `npm run build`: the shipped CLI (scripts/esbuild-options.mjs; decisions 45 and 46):
// dist/docsync.cjs, one esbuild bundle with its dependencies inside and a linked source map;
// dist/cli.js, the launcher that runs it; dist/THIRD-PARTY-NOTICES.txt, the licences of the packages
// it bundles (scripts/notices.mjs); dist/docsync.cjs.cache, the V8 code cache of a warm-up
// run (a plan of config/ against the emulator seeded from examples/, both run from the new build);
// dist/build-inputs.json, a digest of what it was built from.
// The commit `docsync version` prints is embedded: DOCSYNC_BUILD_COMMIT (the image's build has no
// .git), else git's HEAD, else none. No type check: that is `npm run typecheck`.
//
//   node scripts/build.mjs [--outdir DIR]
import { spawn } from 'node:child_process';
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, version as esbuildVersion } from 'esbuild';
import { currentCommit } from './build-info.mjs';
import { LAUNCHER_PACKAGE_JSON, ROOT, launcherOptions, programOptions } from './esbuild-options.mjs';
import { NOTICES_FILE, thirdPartyNotices } from './notices.mjs';

export const DIST = join(ROOT, 'dist');

/** Build the CLI into `outdir` (emptied first: no file of an older build stays). */
export async function buildCli({ outdir = DIST, commit = currentCommit(ROOT) } = {}) {
  // Taken before anything is read: a source changed during the build makes a digest no later
  // check matches, never a stale build that passes for a fresh one.
  const inputs = buildInputsDigest();
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({ ...programOptions({ outdir, commit: commit ?? 'unknown' }), metafile: true });
  assertAscii(join(outdir, 'docsync.cjs'));
  writeFileSync(join(outdir, NOTICES_FILE), thirdPartyNotices(ROOT, result.metafile));
  await build(launcherOptions({ outdir }));
  writeFileSync(join(outdir, 'package.json'), LAUNCHER_PACKAGE_JSON);
  await warmUp(outdir);
  writeFileSync(
    join(outdir, BUILD_INPUTS_FILE),
    `${JSON.stringify({ inputs, commit: commit ?? 'unknown' })}\n`,
  );
  return result;
}

/** What a build was made from (`buildInputsDigest`) and the commit it embeds, beside it. */
export const BUILD_INPUTS_FILE = 'build-inputs.json';

/**
 * A digest of everything `buildCli` reads, as a superset: every source of src/ (not the tests,
 * which it never bundles), the build's scripts, the installed packages (the lockfile),
 * TypeScript's settings, the warm-up's config and seed, esbuild's version and the Node.js and V8
 * the code cache is made by and for. The same digest, the same build: the shipped-CLI test uses
 * a dist/ made from the same inputs (`npm ci` builds one) instead of building again.
 */
export function buildInputsDigest() {
  const hash = createHash('sha256').update(
    `${esbuildVersion}\0${process.version}\0${process.versions.v8}\0${process.execPath}`,
  );
  const files = (dir) =>
    existsSync(join(ROOT, dir))
      ? readdirSync(join(ROOT, dir), { recursive: true })
          .map((f) => join(dir, f))
          .filter((f) => !f.endsWith('.test.ts') && statSync(join(ROOT, f)).isFile())
      : [];
  const inputs = [
    ...files('src'),
    ...files('scripts'),
    ...files('config'),
    ...['examples/emulator-seed.yaml', 'package.json', 'package-lock.json', 'tsconfig.json'].filter((f) =>
      existsSync(join(ROOT, f)),
    ),
  ].sort();
  for (const file of inputs) hash.update(`\0${file}\0`).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex');
}

/**
 * The warm-up's environment: the builder's own, without its docsync settings (an API flavor, a
 * token, a concurrency...: with DOCSYNC_API_FLAVOR=current the warm-up's plan of the seed API's
 * examples failed, and so did the build) and without Node.js options that would make V8 refuse
 * the cache (other flags).
 */
export function warmUpEnv(from = process.env) {
  const env = { NO_COLOR: '1', DOCSYNC_LOG_LEVEL: 'error' };
  for (const [k, v] of Object.entries(from))
    if (v !== undefined && !k.startsWith('DOCSYNC_') && k !== 'NODE_OPTIONS') env[k] = v;
  return env;
}

/**
 * The program must be ASCII (decision 46): Node.js reads a file holding any other character into a
 * string of two bytes a character, decoded slowly above 64 KB (about 30 ms a start for the 1.9 MB
 * program), and V8 keeps that copy. esbuild escapes strings; a regular expression or a tagged
 * template written with such a character in src/ must use a `\u` escape instead.
 */
function assertAscii(file) {
  const bytes = readFileSync(file);
  if (isAscii(bytes)) return;
  const at = bytes.findIndex((b) => b > 0x7f);
  const around = bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
  throw new Error(`${file} holds a non-ASCII character at byte ${at}: …${around}…`);
}

const TOKEN = 'build-warm-up';
/** The most each step of the warm-up may take: a build never hangs on it. */
const WARM_UP_MS = 120_000;

/**
 * Make dist/docsync.cjs.cache: run `plan` (config loading, the live read, references, diff, plan
 * output) once with the launcher writing V8's code cache at exit. Without config/ or the seed
 * (a checkout that lacks them), `validate` of nothing but `--help` is the warm-up.
 */
async function warmUp(outdir) {
  const cli = join(outdir, 'cli.js');
  const cache = join(outdir, 'docsync.cjs.cache');
  const seed = join(ROOT, 'examples', 'emulator-seed.yaml');
  const config = join(ROOT, 'config');
  const env = warmUpEnv();
  if (!existsSync(seed) || !existsSync(config))
    await run(cli, ['--help'], { ...env, DOCSYNC_BUILD_CODE_CACHE: cache });
  else await planAgainstEmulator(cli, seed, config, env, cache);
  if (!existsSync(cache)) throw new Error('the warm-up wrote no code cache');
}

/** The warm-up's plan of `config` against the new build's emulator, seeded with `seed`. */
async function planAgainstEmulator(cli, seed, config, env, cache) {
  const emulator = spawn(
    process.execPath,
    [cli, 'emulator', '--port', '0', '--seed', seed, '--token', TOKEN],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const state = mkdtempSync(join(tmpdir(), 'docsync-warm-up-'));
  try {
    const url = await new Promise((resolve, reject) => {
      const late = setTimeout(
        () => reject(new Error(`the warm-up's emulator did not listen within ${WARM_UP_MS / 1000} s`)),
        WARM_UP_MS,
      );
      late.unref();
      let out = '';
      emulator.on('error', reject);
      emulator.on('exit', (code) => reject(new Error(`the warm-up's emulator exited (${code})`)));
      emulator.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(late);
          resolve(m[1]);
        }
      });
    });
    const plan = ['plan', '--config', config, '--api-url', url, '--state-dir', state];
    await run(cli, plan, { ...env, DOCSYNC_TOKEN: TOKEN, DOCSYNC_BUILD_CODE_CACHE: cache });
  } finally {
    emulator.removeAllListeners('exit');
    emulator.kill();
    rmSync(state, { recursive: true, force: true });
  }
}

/** Run the new CLI; a plan's exit code 2 (changes) is a success here. */
function run(cli, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: WARM_UP_MS,
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 || code === 2 ? resolve() : reject(new Error(`warm-up: docsync ${args[0]} exited ${code}`)),
    );
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  await buildCli(values.outdir ? { outdir: resolve(values.outdir) } : {});
}
