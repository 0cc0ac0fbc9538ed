// `npm run build`'s output (decision 46): the launcher dist/cli.js, the CommonJS program
// dist/docsync.cjs and the V8 code cache of the build's warm-up run. The tests' own CLI
// (test/global-setup.ts) is the same program as one ES module; this builds the shipped layout once,
// and keeps it in .test-dist while nothing the build reads changed (below).
import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import {
  cpSync,
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
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_INPUTS_FILE, buildCli, buildInputsDigest, warmUpEnv } from '../../scripts/build.mjs';
import { ROOT } from '../helpers/cli.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { V8_FLAGS } from '../../src/v8-settings.js';

const COMMIT = 'abcdef1234567';
const KEPT = join(ROOT, '.test-dist', 'shipped');

/**
 * `npm run build`'s layout in `outdir`, and the commit it embeds. CI's `npm ci` builds dist/ (the
 * `prepare` script): when dist/ was made from the sources here (`buildInputsDigest`, written beside
 * it), it is copied. Else a copy of the build kept in .test-dist/shipped from the same inputs, else
 * built now (about 5 s of CPU: esbuild twice and the warm-up's emulator and plan) and kept. The
 * tests spoil and copy files of `outdir`, never of the builds they copy. A changed source, script,
 * config or package builds afresh.
 */
async function shippedBuild(outdir: string): Promise<string> {
  const digest = buildInputsDigest();
  const made = (d: string) => {
    try {
      return JSON.parse(readFileSync(join(d, BUILD_INPUTS_FILE), 'utf8')) as {
        inputs: string;
        commit: string;
      };
    } catch {
      return undefined; // not built yet, or not completely
    }
  };
  for (const built of [join(ROOT, 'dist'), join(KEPT, 'dist')]) {
    const inputs = made(built);
    if (inputs?.inputs !== digest) continue;
    cpSync(built, outdir, { recursive: true });
    return inputs.commit;
  }
  // The builder's own docsync settings never reach the warm-up (warmUpEnv, checked below in
  // process); when this test builds, it builds with one set, as a user's shell may have it.
  const flavor = process.env['DOCSYNC_API_FLAVOR'];
  process.env['DOCSYNC_API_FLAVOR'] = 'current';
  try {
    await buildCli({ outdir, commit: COMMIT });
  } finally {
    if (flavor === undefined) delete process.env['DOCSYNC_API_FLAVOR'];
    else process.env['DOCSYNC_API_FLAVOR'] = flavor;
  }
  const staging = `${KEPT}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  cpSync(outdir, join(staging, 'dist'), { recursive: true });
  rmSync(KEPT, { recursive: true, force: true });
  renameSync(staging, KEPT);
  return COMMIT;
}

let dir: string;
let dist: string;
/** The commit the build embeds. */
let commit: string;
const env = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' };
const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * `node` on these arguments, its exit code and output (not thrown on a non-zero exit). Not
 * synchronous: the tests below start their processes at once (`describe.concurrent`).
 */
function node(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env, ...opts, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

// What the launcher asks of V8 (src/v8-settings.ts's flags first), in a process of its own (V8
// takes a text it compiled before from its own cache of scripts, so only a fresh process shows
// whether the cache file is accepted).
const CHECK = `
const { readFileSync } = require('node:fs'); const { Script } = require('node:vm');
for (const flag of ${JSON.stringify(V8_FLAGS)}) require('node:v8').setFlagsFromString(flag);
const p = process.argv[1]; const cache = readFileSync(p + '.cache').subarray(32);
const s = new Script('(function (exports, require, module, __filename, __dirname) {\\n' + readFileSync(p, 'utf8') + '\\n})',
  { filename: p, lineOffset: -1, cachedData: cache });
process.stdout.write(String(s.cachedDataRejected));`;

// Each test reads dist/ and starts its own processes (none writes dist/): they run at once.
describe.concurrent('the shipped CLI (npm run build)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docsync-shipped-'));
    dist = join(dir, 'dist');
    commit = await shippedBuild(dist);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("runs the warm-up without the builder's docsync settings and Node.js options", () => {
    const env = warmUpEnv({
      PATH: '/bin',
      DOCSYNC_API_FLAVOR: 'current',
      DOCSYNC_TOKEN: 't',
      NODE_OPTIONS: '-r x',
    });
    expect(env).toEqual({ NO_COLOR: '1', DOCSYNC_LOG_LEVEL: 'error', PATH: '/bin' });
  });

  it('is a launcher, a CommonJS program with its source map, and a code cache V8 accepts', async () => {
    for (const f of [
      'cli.js',
      'docsync.cjs',
      'docsync.cjs.map',
      'docsync.cjs.cache',
      'THIRD-PARTY-NOTICES.txt',
    ])
      expect(existsSync(join(dist, f)), f).toBe(true);
    // The licences of what it bundles (scripts/notices.mjs; test/ci/notices.test.ts checks the text).
    expect(readFileSync(join(dist, 'THIRD-PARTY-NOTICES.txt'), 'utf8')).toMatch(/^undici@\S+ \(MIT\)$/m);
    expect(readFileSync(join(dist, 'cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    const check = await node(['-e', CHECK, join(dist, 'docsync.cjs')]);
    expect(check.stdout).toBe('false');
  });

  // Decision 46: Node.js reads a file with any other character into a two-byte string, decoded
  // slowly above 64 KB (about 30 ms a start); the licences' comments are in their own file.
  it('is an ASCII program, its licences beside it', () => {
    expect(isAscii(readFileSync(join(dist, 'docsync.cjs')))).toBe(true);
    expect(readFileSync(join(dist, 'docsync.cjs.LEGAL.txt'), 'utf8')).toMatch(/License/);
  });

  // With a cache V8 refuses: the copy's run below. A stale cache (another build's) and none at all
  // are src/code-cache.test.ts's, in process.
  it('runs with its cache', async () => {
    const validate = await node([join(dist, 'cli.js'), 'validate', '--config', 'config'], { cwd: ROOT });
    expect(validate.status).toBe(0);
    expect(validate.stdout).toMatch(/^config: valid/);
  });

  // src/cli-program.ts: a command that never settles ends with 1, but help asked for is a success
  // (commander takes help's exit code from process.exitCode), and help forced by no command is not.
  it('exits 0 for help asked for and 1 for no command', async () => {
    const cli = join(dist, 'cli.js');
    const [helpPlan, help, planHelp, none] = await Promise.all([
      node([cli, 'help', 'plan']),
      node([cli, 'help']),
      node([cli, 'plan', '--help']),
      node([cli]),
    ]);
    expect([helpPlan.status, help.status, planHelp.status, none.status]).toEqual([0, 0, 0, 1]);
    expect(helpPlan.stdout).toMatch(/^Usage: docsync plan/);
    expect(none.stderr).toMatch(/^Usage: docsync/);
  });

  // src/cli/zod-settings.ts: zod is jitless in the CLI, so it compiles no parser (`new Function`)
  // per object schema; the config's values go through src/config/fast-schema.ts or zod's own path.
  it('validates without compiling a zod parser', async () => {
    const probe = join(dir, 'functions.cjs');
    writeFileSync(
      probe,
      `let made = 0;
globalThis.Function = new Proxy(Function, { construct: (t, a) => (made++, Reflect.construct(t, a)) });
process.on('exit', () => process.stderr.write('\\nfunctions made: ' + made));`,
    );
    const validate = await node(
      ['-r', probe, join(dist, 'cli.js'), 'validate', '--config', 'examples/config'],
      {
        cwd: ROOT,
      },
    );
    expect(validate.stdout).toMatch(/: valid/);
    expect(validate.stderr).toMatch(/^functions made: 0$/m);
  });

  it('maps stack traces to src/ under --enable-source-maps', async () => {
    const run = await node(
      ['--enable-source-maps', join(dist, 'cli.js'), 'plan', '--api-url', 'http://127.0.0.1:1'],
      { cwd: ROOT, env: { ...env, DOCSYNC_LOG_LEVEL: 'debug' } },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: no API token.*\[token-missing\]$/m);
    expect(run.stderr).toMatch(/at readToken \(.*src\/api\/token\.ts:\d+:\d+\)/);
    expect(run.stderr).toMatch(/at (async )?main \(.*src\/cli\/main\.ts:\d+:\d+\)/);
  });

  // scripts/esbuild-options.mjs `undiciH2OnUse`: undici's HTTP/2 client (Node's http2 and tls) is
  // loaded when first used, never by a plan over HTTP/1.1.
  it('plans against the emulator without loading http2 or tls', async () => {
    const probe = join(dir, 'builtins.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('\\nbuiltins: ' + process.moduleLoadList.join(',')));",
    );
    const emulator = await withEmulator({ seed: exampleSeed() });
    try {
      const plan = await promisify(execFile)(
        process.execPath,
        ['-r', probe, join(dist, 'cli.js'), 'plan', '--config', 'config', '--api-url', emulator.url],
        { cwd: ROOT, env: { ...env, DOCSYNC_TOKEN: TOKEN, DOCSYNC_LOG_LEVEL: 'warn' }, encoding: 'utf8' },
      );
      expect(plan.stdout).toMatch(/^Plan: \d+ to create/m);
      const loaded = plan.stderr.match(/^builtins: (.*)$/m)![1]!.split(',');
      expect(loaded).toContain('NativeModule net');
      expect(loaded.filter((m) => /^NativeModule (http2|tls)$/.test(m))).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  // scripts/esbuild-options.mjs `commanderSpawnOnUse` and the version command's lazy commit: Node's
  // child_process (with net and dgram) is loaded by no command that runs no process.
  it('validates without loading child_process', async () => {
    const probe = join(dir, 'builtins-validate.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('\\nbuiltins: ' + process.moduleLoadList.join(',')));",
    );
    const validate = await node(
      ['-r', probe, join(dist, 'cli.js'), 'validate', '--config', 'examples/config'],
      {
        cwd: ROOT,
      },
    );
    expect(validate.stdout).toMatch(/: valid/);
    const loaded = validate.stderr.match(/^builtins: (.*)$/m)![1]!.split(',');
    expect(loaded).toContain('NativeModule fs');
    expect(loaded.filter((m) => /^NativeModule (child_process|dgram)$/.test(m))).toEqual([]);
  });

  // The copy's cache is spoilt (the right text, V8's data not): the program runs the same without it.
  it('runs from a copy of dist/ elsewhere (the image, an npm install), with the commit it was built from, and with a cache V8 refuses', async () => {
    const copy = join(dir, 'copy', 'dist');
    cpSync(dist, copy, { recursive: true });
    const cache = join(copy, 'docsync.cjs.cache');
    const spoilt = readFileSync(cache);
    spoilt.fill(7, 32, 4096);
    writeFileSync(cache, spoilt);
    const run = await node([join(copy, 'cli.js'), 'version']);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    // All of it, in order: nothing added, nothing cut short.
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
    expect(run.stdout).toMatch(
      new RegExp(
        `^docsync ${esc(version)}\\ncommit: +${commit}\\napi flavor: .+\\nnode: +${esc(process.version)}\\n$`,
      ),
    );
  });
});
