// The request-heavy organization of issue 33 (bench/heavy-scenario.ts): `docsync plan` as a process
// against the floor (the same list GETs with bare undici + JSON.parse, bench/floor.mjs), both
// measured the same way (bench/usage.mjs), and the emulator's own throughput while serving the floor.
// Standalone: `tsx bench/heavy.ts [sites] [runs] [--cpu-prof] [--floor-prof] [--emulator-prof]`
// (profiles land in bench/.prof, the floor's in bench/.prof/floor; --emulator-prof profiles this
// process, which is the emulator).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/server.js';
import { HEAVY_FULL, heavyResources, writeHeavyScenario, type HeavyShape } from './heavy-scenario.js';
import { median, quietMachine, runCli, type ProcessRun } from './plan-process.js';

const TOKEN = 'bench-token';
const root = fileURLToPath(new URL('..', import.meta.url));

export type HeavyRun = {
  docsync: ProcessRun;
  floor: ProcessRun;
  /** docsync CPU / floor CPU, in the same run. */
  ratio: number;
  requests: number;
  /** List requests the emulator served per second of its own CPU (one core), while serving the floor. */
  emulatorPerCpuSecond: number;
};
export type HeavyFigures = { shape: HeavyShape; resources: number; files: number; runs: HeavyRun[] };

export async function measureHeavy(
  shape: HeavyShape,
  runs: number,
  opts: {
    nodeFlags?: string[];
    floorFlags?: string[];
    waitForQuietMs?: number;
    profileEmulator?: string;
  } = {},
): Promise<HeavyFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-heavy-'));
  try {
    const { seed, files } = writeHeavyScenario(shape, join(dir, 'config'));
    const emu = await startEmulator({ token: TOKEN, seed });
    try {
      // Per-request cost is compared at the floor's pool of 4: the client would otherwise grow its
      // concurrency to what the emulator's rate-limit headers allow (decision 43), opening many more
      // connections than the floor. The latency rows measure that growth.
      const env = {
        ...process.env,
        DOCSYNC_TOKEN: TOKEN,
        NO_COLOR: '1',
        DOCSYNC_LOG_LEVEL: 'warn',
        DOCSYNC_MAX_CONCURRENCY: '4',
      };
      const args = ['plan', '--config', join(dir, 'config'), '--api-url', emu.url];
      const results: HeavyRun[] = [];
      for (let i = 0; i < runs; i += 1) {
        await quietMachine(opts.waitForQuietMs ?? 0);
        emu.reset(seed);
        const docsync = await runCli(
          [...args, '--state-dir', join(dir, `state-${i}`)],
          env,
          opts.nodeFlags ?? [],
        );
        const log = emu.requests();
        if (log.some((r) => r.method !== 'GET' || r.status !== 200))
          throw new Error('the heavy plan made a request other than a successful GET');
        const paths = log.map((r) => r.path + r.query);
        const replay = join(dir, 'floor.json');
        writeFileSync(replay, JSON.stringify({ origin: emu.url, token: TOKEN, paths }));
        emu.reset(seed);
        const session = opts.profileEmulator && i === 0 ? new Session() : undefined;
        if (session) {
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.start');
        }
        const cpu0 = process.cpuUsage();
        const floor = await runCli([replay], env, opts.floorFlags ?? [], join(root, 'bench/floor.mjs'));
        const cpu = process.cpuUsage(cpu0);
        if (session) {
          const { profile } = await session.post('Profiler.stop');
          writeFileSync(opts.profileEmulator!, JSON.stringify(profile));
          session.disconnect();
        }
        results.push({
          docsync,
          floor,
          ratio: docsync.cpuMs / floor.cpuMs,
          requests: paths.length,
          emulatorPerCpuSecond: paths.length / ((cpu.user + cpu.system) / 1e6),
        });
      }
      return { shape, resources: heavyResources(shape), files, runs: results };
    } finally {
      await emu.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The run with the median ratio. */
export function medianRun(f: HeavyFigures): HeavyRun {
  const ratio = median(f.runs.map((r) => r.ratio));
  return f.runs.find((r) => r.ratio === ratio)!;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const sites = Number(positional[0] ?? HEAVY_FULL.sites);
  const runs = Number(positional[1] ?? 1);
  const flags = process.argv.includes('--cpu-prof')
    ? ['--cpu-prof', '--cpu-prof-dir', join(root, 'bench/.prof')]
    : [];
  flags.push(...process.argv.filter((a) => a.startsWith('--node=')).map((a) => a.slice('--node='.length)));
  const profileEmulator = process.argv.includes('--emulator-prof')
    ? join(root, 'bench/.prof', `emulator-${Date.now()}.cpuprofile`)
    : undefined;
  const teams = Math.round((HEAVY_FULL.teams * sites) / HEAVY_FULL.sites);
  const floorFlags = process.argv.includes('--floor-prof')
    ? ['--cpu-prof', '--cpu-prof-dir', join(root, 'bench/.prof/floor')]
    : [];
  const f = await measureHeavy({ ...HEAVY_FULL, sites, teams }, runs, {
    nodeFlags: flags,
    floorFlags,
    profileEmulator,
  });
  for (const r of f.runs)
    console.log(
      `${f.resources} resources, ${r.requests} GETs: docsync CPU ${(r.docsync.cpuMs / 1000).toFixed(2)} s, peak ${r.docsync.peakRssMb.toFixed(0)} MB, wall ${(r.docsync.wallMs / 1000).toFixed(2)} s; floor CPU ${(r.floor.cpuMs / 1000).toFixed(2)} s, wall ${(r.floor.wallMs / 1000).toFixed(2)} s; ratio ${r.ratio.toFixed(2)}×; emulator ${r.emulatorPerCpuSecond.toFixed(0)} req/s per core`,
    );
}
