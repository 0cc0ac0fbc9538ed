import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { inlineCreateRequire } from '../../scripts/bundle-action.mjs';
import { ROOT, until } from '../helpers/cli.js';
import { spawn } from 'node:child_process';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

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
    for (const file of buildScript.match(/scripts\/[\w.-]+/g) ?? []) expect(buildCopies).toContain(file);
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

  it('the code the CLI loads needs production dependencies only (the image installs --omit=dev)', async () => {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli.ts'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      outfile: 'out.js',
      logLevel: 'silent',
      plugins: [inlineCreateRequire],
    });
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    /** package-lock's key of an input file: node_modules/a, or node_modules/a/node_modules/b. */
    const lockKey = (file: string) => {
      const parts = file.split('node_modules/').slice(1);
      return parts.length === 0
        ? undefined
        : parts.map((p) => `node_modules/${/^(@[^/]+\/)?[^/]+/.exec(p)![0]}`).join('/');
    };
    const packages = new Set(
      Object.keys(result.metafile.inputs)
        .map(lockKey)
        .filter((p): p is string => p !== undefined),
    );
    expect(packages).toContain('node_modules/commander');
    expect(packages).toContain('node_modules/undici');
    const dev = [...packages].filter((p) => lock.packages[p] === undefined || lock.packages[p].dev === true);
    expect(dev).toEqual([]);
  }, 60_000);

  it('`demo` runs from a folder laid out like the image (/app) and serves the status page on 0.0.0.0', async () => {
    const app = join(mkdtempSync(join(tmpdir(), 'docsync-image-')), 'app');
    mkdirSync(app);
    for (const f of ['package.json', 'schema', 'examples/emulator-seed.yaml', 'config'])
      cpSync(join(ROOT, f), join(app, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'));
    // dist/ as `npm run build` lays it out (one file per source; esbuild instead of tsc, for speed).
    await build({
      absWorkingDir: ROOT,
      entryPoints: readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => join('src', f)),
      outdir: join(app, 'dist'),
      outbase: 'src',
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
    });
    expect(existsSync(join(app, 'dist/cli/demo.js'))).toBe(true);
    const child = spawn(
      process.execPath,
      [join(app, 'dist/cli.js'), 'demo', '--port', '0', '--emulator-port', '0'],
      {
        cwd: app,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DOCSYNC_STATE_DIR: join(app, '..', 'state'),
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
      const html = await fetch(page![1]!);
      expect(html.status).toBe(200);
      expect(await html.text()).toContain('<title>docsync status</title>');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  }, 90_000);
});
