// `docsync plan` as a process (the built CLI, dist/cli.js) against the emulator on loopback, on the
// synthetic organization of bench/scenario.ts. Wall time, CPU (user + system) and peak RSS of the
// child, as the child reports them itself at exit (bench/usage.mjs).
// Standalone: `tsx bench/plan-process.ts 100000 [runs] [--cpu-prof]` (profiles land in bench/.prof).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/server.js';
import { writeScenario } from './scenario.js';

const TOKEN = 'bench-token';
const root = fileURLToPath(new URL('..', import.meta.url));

export type ProcessRun = {
  wallMs: number;
  cpuMs: number;
  userMs: number;
  systemMs: number;
  peakRssMb: number;
  /** The 1-minute load average when the run started. */
  load?: number;
};
export type ProcessFigures = {
  n: number;
  resources: number;
  files: number;
  runs: ProcessRun[];
  median: ProcessRun;
};

/**
 * Other work on the machine inflates even CPU time (shared caches and cores): before each run,
 * wait up to `maxWaitMs` for the 1-minute load average to drop to the number of cores plus one.
 * Returns the load the run starts at (shown beside the figures).
 */
export async function quietMachine(maxWaitMs: number): Promise<number> {
  const deadline = Date.now() + maxWaitMs;
  while (loadavg()[0]! > cpus().length + 1 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  return loadavg()[0]!;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Run `node [flags] --import bench/usage.mjs <script> ...args` (the built CLI by default); its own CPU and peak RSS. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: string[],
  script = join(root, 'dist/cli.js'),
  onStdout?: (text: string) => void,
): Promise<ProcessRun> {
  const usageFile = join(mkdtempSync(join(tmpdir(), 'docsync-usage-')), 'usage.json');
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags, '--import', join(root, 'bench/usage.mjs'), script, ...args],
      {
        env: { ...env, DOCSYNC_BENCH_USAGE: usageFile },
        stdio: ['ignore', process.env.BENCH_CHILD_STDOUT && !onStdout ? 'inherit' : 'pipe', 'pipe'],
      },
    );
    // As text, decoded across chunks: a character split between two chunks is not garbled.
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0 && code !== 2) {
        reject(new Error(`${script} exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      onStdout?.(stdout);
      const u = JSON.parse(readFileSync(usageFile, 'utf8')) as {
        userMs: number;
        systemMs: number;
        maxRssKb: number;
      };
      rmSync(join(usageFile, '..'), { recursive: true, force: true });
      resolve({
        wallMs,
        cpuMs: u.userMs + u.systemMs,
        userMs: u.userMs,
        systemMs: u.systemMs,
        peakRssMb: (u.maxRssKb * 1024) / 1e6,
      });
    });
  });
}

/** Run `docsync plan` `runs` times on a fresh scenario of about `n` resources; the median of each figure. */
export async function measurePlanProcess(
  n: number,
  runs: number,
  nodeFlags: string[] = [],
  waitForQuietMs = 0,
): Promise<ProcessFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-bench-'));
  try {
    const { seed, resources, files } = writeScenario(n, join(dir, 'config'));
    const emu = await startEmulator({ token: TOKEN, seed });
    try {
      const env = { ...process.env, DOCSYNC_TOKEN: TOKEN, NO_COLOR: '1', DOCSYNC_LOG_LEVEL: 'warn' };
      const args = [
        'plan',
        '--config',
        join(dir, 'config'),
        '--api-url',
        emu.url,
        '--state-dir',
        join(dir, 'state'),
      ];
      const results: ProcessRun[] = [];
      for (let i = 0; i < runs; i += 1) {
        const load = await quietMachine(waitForQuietMs);
        results.push({ ...(await runCli(args, env, nodeFlags)), load });
      }
      const pick = (k: Exclude<keyof ProcessRun, 'load'>) => median(results.map((r) => r[k]));
      return {
        n,
        resources,
        files,
        runs: results,
        median: {
          wallMs: pick('wallMs'),
          cpuMs: pick('cpuMs'),
          userMs: pick('userMs'),
          systemMs: pick('systemMs'),
          peakRssMb: pick('peakRssMb'),
        },
      };
    } finally {
      await emu.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const n = Number(process.argv[2] ?? 100_000);
  const runs = Number(process.argv[3] ?? 1);
  const prof = process.argv.includes('--cpu-prof');
  const flags = prof ? ['--cpu-prof', '--cpu-prof-dir', join(root, 'bench/.prof')] : [];
  if (process.argv.includes('--trace-gc')) flags.push('--trace-gc');
  flags.push(...process.argv.filter((a) => a.startsWith('--node=')).map((a) => a.slice(7)));
  const figures = await measurePlanProcess(n, runs, flags);
  console.log(JSON.stringify(figures, null, 2));
}
