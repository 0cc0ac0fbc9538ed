import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliOptions } from '../../scripts/esbuild-options.mjs';
import type { buildCommit } from '../../src/build-info.js';
import { CLI_NODE_FLAGS, ROOT, until } from '../helpers/cli.js';
import { exampleSeed, TOKEN, withEmulator } from '../helpers/emulator.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const run = promisify(execFile);

/**
 * The CLI bundled with `npm run build`'s options into `dist`: a copy of test/global-setup.ts's, and
 * the part of its metafile that is the CLI's (set-up bundles a script beside it).
 */
async function testBundle(dist: string): Promise<{ metafile: Metafile }> {
  const cli = process.env['DOCSYNC_TEST_CLI'];
  if (!cli) return build({ ...cliOptions({ outdir: dist }), metafile: true });
  mkdirSync(dist);
  for (const f of ['cli.js', 'cli.js.map']) cpSync(join(dirname(cli), f), join(dist, f));
  const meta = JSON.parse(readFileSync(join(dirname(cli), 'meta.json'), 'utf8')) as Metafile;
  const [key, output] = Object.entries(meta.outputs).find(([, o]) => o.entryPoint === 'src/cli.ts')!;
  const inputs = Object.fromEntries(Object.keys(output.inputs).map((i) => [i, meta.inputs[i]!]));
  return { metafile: { inputs, outputs: { [key]: output } } };
}

/** A folder and every folder above it. */
function ancestors(dir: string): string[] {
  const up = dirname(dir);
  return up === dir ? [dir] : [dir, ...ancestors(up)];
}

type Instruction = { op: string; args: string };
/** The Dockerfile's stages: their instructions, continuation lines joined, comments dropped. */
function stages(text: string): { name: string; steps: Instruction[] }[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  const result: { name: string; steps: Instruction[] }[] = [];
  for (const line of lines) {
    const [, op, args] = /^\s*(\w+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM')
      result.push({ name: /\bAS\s+(\S+)/i.exec(args!)?.[1] ?? '', steps: [] });
    result.at(-1)!.steps.push({ op: op!.toUpperCase(), args: args!.trim() });
  }
  return result;
}

/** `COPY [--from=x] SRC... DEST`: its sources and destination. */
function copyOf(args: string): { from?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { ...(from ? { from } : {}), sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

describe('the image (Dockerfile)', () => {
  const dockerfile = read('Dockerfile');
  const [buildStage, runtime] = stages(dockerfile);
  const ignored = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

  // /app as the runtime stage lays it out, in a temporary folder: no node_modules in it or above
  // it. Its dist/ is the CLI test/global-setup.ts bundled with `npm run build`'s options (only the
  // commit is not embedded there: see the `version` test below), copied rather than bundled again;
  // bundled here only when no set-up ran.
  const app = join(mkdtempSync(join(tmpdir(), 'docsync-image-')), 'app');
  let built: Promise<{ metafile: Metafile }>;
  beforeAll(() => {
    mkdirSync(app);
    for (const f of ['package.json', 'schema', 'examples/emulator-seed.yaml', 'config'])
      cpSync(join(ROOT, f), join(app, f), { recursive: true });
    built = testBundle(join(app, 'dist'));
    return built.then(() => undefined);
  }, 60_000);
  afterAll(() => rmSync(dirname(app), { recursive: true, force: true }));

  it('copies files that exist and that .dockerignore lets through; the build stage has what `npm run build` runs', () => {
    const copies = [...buildStage!.steps, ...runtime!.steps]
      .filter((s) => s.op === 'COPY')
      .map((s) => copyOf(s.args));
    for (const c of copies.filter((x) => !x.from))
      for (const src of c.sources) {
        expect(existsSync(join(ROOT, src)), `COPY ${src}`).toBe(true);
        expect(ignored, `COPY ${src} is in .dockerignore`).not.toContain(src.split('/')[0]);
      }
    const buildCopies = buildStage!.steps
      .filter((s) => s.op === 'COPY')
      .flatMap((s) => copyOf(s.args).sources);
    const buildScript = JSON.parse(read('package.json')).scripts.build as string;
    // The build script and every script it imports, transitively.
    const scripts = new Set(buildScript.match(/scripts\/[\w.-]+/g) ?? []);
    for (const file of scripts)
      for (const [, name] of read(file).matchAll(/from '\.\/([\w.-]+\.mjs)'/g))
        scripts.add(`scripts/${name}`);
    expect(scripts).toContain('scripts/esbuild-options.mjs');
    for (const file of scripts) expect(buildCopies).toContain(file);
    expect(buildStage!.steps.some((s) => s.op === 'RUN' && /npm run build/.test(s.args))).toBe(true);
  });

  it('carries the demo seed and config where `docsync demo` reads them; the default command is the daemon', () => {
    const runtimeCopies = runtime!.steps.filter((s) => s.op === 'COPY').map((s) => copyOf(s.args));
    const workdir = runtime!.steps.filter((s) => s.op === 'WORKDIR').at(-1)!.args;
    expect(workdir).toBe('/app');
    const at = (dest: string) => runtimeCopies.find((c) => c.dest === dest);
    expect(at('./examples/emulator-seed.yaml')?.sources).toEqual(['examples/emulator-seed.yaml']);
    expect(at('./config')?.sources).toEqual(['config']);
    expect(at('./dist')).toMatchObject({ from: 'build', sources: ['/app/dist'] });
    expect(runtime!.steps.find((s) => s.op === 'CMD')?.args).toBe('["daemon"]');
    expect(runtime!.steps.find((s) => s.op === 'ENTRYPOINT')?.args).toContain('/app/dist/cli.js');
  });

  it('installs no node_modules at run time: the bundle leaves nothing but Node.js built-ins to import', async () => {
    const runtimeRuns = runtime!.steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runtimeRuns.filter((r) => /\bnpm (ci|install|i)\b/.test(r))).toEqual([]);
    expect(runtime!.steps.some((s) => s.op === 'COPY' && /node_modules/.test(s.args))).toBe(false);
    const { metafile } = await built;
    const external = Object.values(metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.external).map((i) => i.path),
    );
    expect(external.length).toBeGreaterThan(0);
    expect(external.filter((p) => !p.startsWith('node:') && !isBuiltin(p))).toEqual([]);
  });

  it('the code the CLI bundles is production dependencies only (the npm package installs those)', async () => {
    const { metafile } = await built;
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    /** package-lock's key of an input file: node_modules/a, or node_modules/a/node_modules/b. */
    const lockKey = (file: string) => {
      const parts = file.split('node_modules/').slice(1);
      return parts.length === 0
        ? undefined
        : parts.map((p) => `node_modules/${/^(@[^/]+\/)?[^/]+/.exec(p)![0]}`).join('/');
    };
    const packages = new Set(
      Object.keys(metafile.inputs)
        .map(lockKey)
        .filter((p): p is string => p !== undefined),
    );
    expect(packages).toContain('node_modules/commander');
    expect(packages).toContain('node_modules/undici');
    const dev = [...packages].filter((p) => lock.packages[p] === undefined || lock.packages[p].dev === true);
    expect(dev).toEqual([]);
  });

  it('the build embeds the commit it is given (what `docsync version` prints in the image), with no checkout around it', async () => {
    // `npm run build`'s options with a commit, on the module that reads it (not the whole CLI
    // again: test/global-setup.ts bundled that, without a commit, for the test below).
    const out = join(dirname(app), 'commit');
    await build({
      ...cliOptions({ outdir: out, commit: 'abcdef1234567' }),
      entryPoints: [{ in: 'src/build-info.ts', out: 'build-info' }],
    });
    const info = (await import(pathToFileURL(join(out, 'build-info.js')).href)) as {
      buildCommit: typeof buildCommit;
    };
    expect(info.buildCommit()).toBe('abcdef1234567');
  });

  // The two tests that start processes in /app run at once: each has its own emulator and state
  // folder, and neither writes /app.
  it.concurrent(
    'runs from a folder laid out like the image (/app), with no node_modules: version, plan against the emulator',
    async () => {
      await built;
      expect(existsSync(join(app, 'dist', 'cli.js'))).toBe(true);
      expect(existsSync(join(app, 'node_modules'))).toBe(false);
      expect(ancestors(app).filter((d) => existsSync(join(d, 'node_modules')))).toEqual([]);
      // The commands that talk HTTP run with CLI_NODE_FLAGS (V8's baseline WebAssembly compiler for
      // undici's parser: less CPU, the same behaviour); version gains nothing from it.
      const cli = (args: string[], env: Record<string, string> = {}, flags: readonly string[] = []) =>
        run(process.execPath, [...flags, join(app, 'dist', 'cli.js'), ...args], {
          cwd: app,
          env: {
            PATH: process.env['PATH'] ?? '',
            NO_COLOR: '1',
            DOCSYNC_STATE_DIR: join(app, '..', 'state'),
            ...env,
          },
        });
      // No `validate` here: the plan below loads and checks the same config from /app, and the shipped
      // binary's `validate` is test/ci/shipped-cli.test.ts's. Both processes start at once (neither
      // writes anything the other reads).
      const emulator = await withEmulator({ seed: exampleSeed() });
      try {
        const [version, plan] = await Promise.all([
          cli(['version', '-o', 'json']),
          cli(
            ['plan', '--config', 'config', '--api-url', emulator.url, '-o', 'json'],
            { DOCSYNC_TOKEN: TOKEN, DOCSYNC_LOG_LEVEL: 'warn' },
            CLI_NODE_FLAGS,
          ),
        ]);
        // The version (what `--version` prints too: src/version.ts) and the commit: neither embedded
        // (the tests' bundle) nor a checkout above it, `unknown`, not some other repository's HEAD.
        expect(JSON.parse(version.stdout)).toMatchObject({
          version: (JSON.parse(read('package.json')) as { version: string }).version,
          commit: 'unknown',
        });
        const summary = (JSON.parse(plan.stdout) as { summary: Record<string, number> }).summary;
        expect(summary['create']).toBeGreaterThan(0);
      } finally {
        await emulator.close();
      }
    },
  );

  it.concurrent(
    '`demo` runs there too (no node_modules): the daemon answers /healthz and serves the status page on 0.0.0.0',
    async () => {
      await built;
      const child = spawn(
        process.execPath,
        [...CLI_NODE_FLAGS, join(app, 'dist/cli.js'), 'demo', '--port', '0', '--emulator-port', '0'],
        {
          cwd: app,
          env: {
            PATH: process.env['PATH'] ?? '',
            NODE_ENV: 'production',
            DOCSYNC_STATE_DIR: join(app, '..', 'demo-state'),
            DOCSYNC_HOST: '0.0.0.0', // what the image sets for the daemon
            DOCSYNC_LOG_LEVEL: 'warn',
            NO_COLOR: '1',
          },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      try {
        // The daemon's own line comes after the demo's (page, status, ...): wait for both.
        await until(() => /^page: +http:/m.test(stdout) && /^docsync daemon /m.test(stdout), 60_000);
        expect(stdout).toMatch(/docsync daemon \(apply mode\) on http:\/\/0\.0\.0\.0:\d+/);
        expect(stdout).toContain(`config:   ${join(app, 'config')}`);
        const page = /^page: +(http:\/\/127\.0\.0\.1:\d+\/) /m.exec(stdout);
        expect(page, stdout + stderr).not.toBeNull();
        const health = await fetch(new URL('healthz', page![1]!));
        expect(health.status).toBe(200);
        const html = await fetch(page![1]!);
        expect(html.status).toBe(200);
        expect(await html.text()).toContain('<title>docsync status</title>');
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('close', r));
      }
    },
    90_000,
  );
});
