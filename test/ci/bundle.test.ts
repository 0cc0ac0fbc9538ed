import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cliOptions } from '../../scripts/esbuild-options.mjs';
import { ROOT } from '../helpers/cli.js';

/**
 * The bundle's modules and their imports as esbuild describes them: the bundle test/global-setup.ts
 * built with `npm run build`'s options, else a fresh build in memory.
 */
async function metafile(): Promise<Metafile> {
  const cli = process.env['DOCSYNC_TEST_CLI'];
  if (cli) return JSON.parse(readFileSync(join(dirname(cli), 'meta.json'), 'utf8')) as Metafile;
  const result = await build({
    ...cliOptions({ outdir: join(ROOT, '.test-dist', 'bundle-test') }),
    write: false,
    metafile: true,
  });
  return result.metafile!;
}

/**
 * What a process evaluates when it runs `command` (undefined: `--version`, `--help`): src/cli.ts,
 * the module src/cli/<command>.ts the dispatcher imports for it with `import()`, and every module
 * these import or require (esbuild initializes a module reached only through `import()` when that
 * runs); as the packages and the folders of src/ among them.
 */
function loaded(meta: Metafile, command?: string): { packages: Set<string>; sources: Set<string> } {
  const inputs = meta.inputs;
  const todo = ['src/cli.ts', ...(command ? [`src/cli/${command}.ts`] : [])];
  for (const start of todo) expect(inputs[start], start).toBeDefined();
  const seen = new Set<string>();
  while (todo.length > 0) {
    const input = todo.pop()!;
    if (seen.has(input)) continue;
    seen.add(input);
    for (const i of inputs[input]?.imports ?? [])
      if (i.kind !== 'dynamic-import' && !i.external) todo.push(i.path);
  }
  const packages = new Set<string>();
  const sources = new Set<string>();
  for (const input of seen) {
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    if (pkg) packages.add(pkg);
    else if (input.startsWith('src/')) sources.add(input.split('/').slice(0, 2).join('/'));
  }
  return { packages, sources };
}

const DAEMON_ONLY = ['prom-client', 'chokidar', 'node-cron'];
const DAEMON_SOURCES = ['src/daemon', 'src/emulator', 'src/coord', 'src/notify', 'src/source', 'src/github'];

describe('the bundled CLI loads a command only when it runs (decision 45)', () => {
  it('--version and --help: the dispatcher and commander, no command', async () => {
    const { packages, sources } = loaded(await metafile());
    expect([...packages]).toEqual(['commander']);
    for (const heavy of ['src/config', 'src/kinds', 'src/log', 'src/live', 'src/plan', ...DAEMON_SOURCES])
      expect(sources, heavy).not.toContain(heavy);
  });

  it('validate: the config loader, no HTTP client, logger, daemon or emulator', async () => {
    const { packages, sources } = loaded(await metafile(), 'validate');
    expect(sources).toContain('src/config');
    for (const pkg of ['undici', 'pino', ...DAEMON_ONLY]) expect(packages, pkg).not.toContain(pkg);
    for (const heavy of ['src/live', 'src/apply', ...DAEMON_SOURCES])
      expect(sources, heavy).not.toContain(heavy);
  });

  it('plan: the reads and the plan, none of the daemon, the status page, etcd, metrics, notifications or the emulator', async () => {
    const { packages, sources } = loaded(await metafile(), 'plan');
    expect(packages).toContain('undici');
    expect(sources).toContain('src/live');
    for (const pkg of DAEMON_ONLY) expect(packages, pkg).not.toContain(pkg);
    for (const heavy of ['src/apply', ...DAEMON_SOURCES]) expect(sources, heavy).not.toContain(heavy);
  });

  it('daemon: not the emulator', async () => {
    const { packages, sources } = loaded(await metafile(), 'daemon');
    expect(packages).toContain('prom-client');
    expect(sources).toContain('src/daemon');
    expect(sources).not.toContain('src/emulator');
  });
});
