/**
 * The GitHub Action's start-up: from starting `node dist-action/index.js` (as the runner does, with
 * INPUT_* variables, in a workspace holding config/) to the plan printed, against the emulator on
 * loopback seeded with examples/emulator-seed.yaml. Median of N runs (default 5).
 *
 *   tsx bench/action-startup.ts [N]      (builds the bundle into a temporary folder first)
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAction } from '../scripts/bundle-action.mjs';
import { startEmulator } from '../src/emulator/server.js';
import { readSeed } from '../src/cli/emulator.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'docsync-action-bench-'));
const bundle = await bundleAction({ outfile: join(dir, 'action', 'dist-action', 'index.js') });
cpSync(join(ROOT, 'package.json'), join(dir, 'action', 'package.json'));
cpSync(join(ROOT, 'config'), join(dir, 'config'), { recursive: true });
const emulator = await startEmulator({
  port: 0,
  host: '127.0.0.1',
  token: 'dev-token',
  seed: await readSeed(join(ROOT, 'examples/emulator-seed.yaml')),
});

function once(): Promise<{ firstLine: number; plan: number; exit: number; cpu: number }> {
  const out = join(dir, 'output');
  writeFileSync(out, '');
  const start = performance.now();
  const usage = join(dir, 'usage.json');
  // bench/usage.mjs reports the process's own CPU time at exit (independent of the machine's load).
  const child = spawn(process.execPath, ['--import', join(ROOT, 'bench/usage.mjs'), bundle], {
    cwd: dir,
    env: {
      PATH: process.env['PATH'],
      INPUT_COMMAND: 'plan',
      INPUT_CONFIG: 'config',
      'INPUT_API-URL': emulator.url,
      INPUT_FORMAT: 'markdown',
      INPUT_TOKEN: 'dev-token',
      GITHUB_OUTPUT: out,
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      RUNNER_TEMP: dir,
      DOCSYNC_STATE_DIR: join(dir, 'state'),
      DOCSYNC_LOG_LEVEL: 'warn',
      DOCSYNC_BENCH_USAGE: usage,
    },
  });
  let text = '';
  let firstLine = 0;
  let plan = 0;
  child.stdout.on('data', (d: Buffer) => {
    text += d.toString();
    if (!firstLine && text.includes('\n')) firstLine = performance.now() - start;
    if (!plan && text.includes('**Plan:**')) plan = performance.now() - start;
  });
  return new Promise((resolve) =>
    child.on('close', () => {
      const u = JSON.parse(readFileSync(usage, 'utf8')) as { userMs: number; systemMs: number };
      resolve({ firstLine, plan, exit: performance.now() - start, cpu: u.userMs + u.systemMs });
    }),
  );
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
await emulator.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${Math.round(x)} ms`;
console.log(
  `action start-up, median of ${runs} (load ${loadavg()[0]!.toFixed(1)}): first line ${ms(median(results.map((r) => r.firstLine)))}, plan printed ${ms(median(results.map((r) => r.plan)))}, exit ${ms(median(results.map((r) => r.exit)))}, CPU ${ms(median(results.map((r) => r.cpu)))}; bundle ${statSync(bundle).size} bytes; Node.js ${process.version}`,
);
console.log(results.map((r) => `${ms(r.plan)}`).join(', '));
