// `npm run bench [-- --quick] [-- --write] [-- --only=heavy,latency]`: call counts, rate-limited apply
// time, `docsync plan` as a process (CPU, peak RSS, wall), the request-heavy organization against the
// bare-undici floor, in-process diff and plan, reorders. Prints a markdown table; only `--write`
// (never with `--quick` or `--only`) rewrites docs/benchmarks.md, with the machine and the date.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../src/api/client.js';
import { lowerBound, type WindowModel } from '../src/api/rate-bound.js';
import { applyPlan } from '../src/apply/run.js';
import { planMoves } from '../src/diff/order.js';
import { startEmulator, type Emulator } from '../src/emulator/server.js';
import { readLive } from '../src/live/read.js';
import type { DesiredOrganization, DesiredState } from '../src/reconcile/index.js';
import { makePlan } from '../src/pipeline/plan-run.js';
import { measureHeavy, medianRun } from './heavy.js';
import { startEmulatorProcess } from './emulator-process.js';
import { HEAVY_FULL, HEAVY_QUICK, heavyResources, writeHeavyScenario } from './heavy-scenario.js';
import { writeScenario } from './scenario.js';
import { DEFAULT_MAX_CONCURRENCY } from '../src/cli/context.js';
import { loadConfig } from '../src/config/load.js';
import { measurePlanProcess, median, runCli, type ProcessFigures } from './plan-process.js';
import { buildCli } from '../scripts/build.mjs';
import { measureAccess } from './access.js';

const quick = process.argv.includes('--quick');
const write = process.argv.includes('--write');
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const SECTIONS = [
  'startup',
  'read',
  'write',
  'rate',
  'process',
  'heavy',
  'latency',
  'cpu',
  'reorders',
  'access',
] as const;
if (only?.some((o) => !(SECTIONS as readonly string[]).includes(o))) {
  console.error(`--only takes a comma-separated list of: ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const runs = (section: (typeof SECTIONS)[number]) => !only || only.includes(section);
if ((quick || only) && write) {
  console.error('--quick and --only never rewrite docs/benchmarks.md: run the full benchmark with --write');
  process.exit(2);
}
const TOKEN = 'bench-token';
/** The teams list's pages in the emulator's request log (not a team's members below it). */
const TEAMS_LIST = /\/orgs\/[^/]+\/teams$/;
/** The shipped CLI, as `npm run build` writes it. */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const rows: { bench: string; measured: string; target: string; ok: boolean | null }[] = [];
const notes: string[] = [];
const row = (bench: string, measured: string, target: string, ok: boolean | null) => {
  rows.push({ bench, measured, target, ok });
  console.log(`${ok === null ? '·' : ok ? '✓' : '✗'} ${bench}: ${measured} (target: ${target})`);
};

const members = Array.from({ length: 40 }, (_, i) => ({
  id: `user_${i}`,
  email: `u${i}@example.com`,
  role: 'edit',
}));
const spaces = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `space_${i}`, title: `Space ${i}` }));
const client = (emu: Emulator, concurrency = 4) =>
  new ApiClient({ apiUrl: emu.url, token: TOKEN, concurrency });
const writes = (emu: Emulator) => emu.requests().filter((r) => r.method !== 'GET').length;

/** 1. Read cost of a large organization against one GET per object. */
async function readCost(): Promise<void> {
  const sites = 20;
  const sectionsPerSite = 25;
  const spacesPerSection = 4;
  const seed = {
    organizations: [
      {
        id: 'org_big',
        members,
        spaces: spaces(sites * sectionsPerSite * spacesPerSection),
        customFields: Array.from({ length: 50 }, (_, i) => ({ name: `field_${i}`, type: 'text' })),
        teams: Array.from({ length: 300 }, (_, i) => ({
          title: `Team ${i}`,
          members: members.map((m) => m.id),
        })),
        sites: Array.from({ length: sites }, (_, s) => ({
          title: `Site ${s}`,
          shareLinks: Array.from({ length: 10 }, (_, l) => ({ name: `link-${l}` })),
          sectionGroups: [{ title: 'Group' }],
          sections: Array.from({ length: sectionsPerSite }, (_, i) => ({
            title: `Section ${i}`,
            path: `s${i}`,
            siteSpaces: Array.from({ length: spacesPerSection }, (_, j) => ({
              space: `space_${(s * sectionsPerSite + i) * spacesPerSection + j}`,
            })),
          })),
        })),
      },
    ],
  };
  const emu = await startEmulator({ token: TOKEN, seed });
  const api = client(emu);
  const desired: DesiredState = {
    organizations: [
      {
        id: 'org_big',
        policy: { prune: false, maxDeletes: 10 },
        customFields: [],
        teams: Array.from({ length: 300 }, (_, i) => ({ title: `Team ${i}`, members: [] })),
        sites: Array.from({ length: sites }, (_, s) => ({
          title: `Site ${s}`,
          sections: [],
          sectionGroups: [],
          shareLinks: [],
        })),
      },
    ],
  };
  const t0 = Date.now();
  await readLive(api, desired);
  const ms = Date.now() - t0;
  const requests = emu.requests().length;
  const objects =
    sites +
    sites * sectionsPerSite +
    sites * sectionsPerSite * spacesPerSection +
    sites * 10 +
    sites +
    50 +
    300 +
    300 * 40;
  const ratio = objects / requests;
  row(
    'read: full live read of 20 sites × 25 sections × 4 site spaces, 200 share links, 50 fields, 300 teams × 40 members',
    `${requests} requests vs ${objects} for one GET per object (${ratio.toFixed(1)}×) in ${(ms / 1000).toFixed(2)} s`,
    '≥ 35×',
    ratio >= 35,
  );
  await api.close();
  await emu.close();
}

function scenarioOrg(sitesN: number, sectionsN: number): DesiredOrganization {
  return {
    id: 'org_w',
    policy: { prune: true, maxDeletes: 1e6 },
    customFields: Array.from({ length: 10 }, (_, i) => ({
      name: `f${i}`,
      type: 'text' as const,
      title: `Field ${i}`,
    })),
    teams: Array.from({ length: 10 }, (_, i) => ({
      title: `Team ${i}`,
      members: [{ user: `user_${i}`, role: 'member' as const }],
    })),
    sites: Array.from({ length: sitesN }, (_, s) => ({
      title: `Site ${s}`,
      basename: `site-${s}`,
      shareLinks: [{ name: 'preview' }],
      sections: Array.from({ length: sectionsN }, (_, i) => ({
        path: `s${i}`,
        title: `Section ${i}`,
        spaces: [0, 1, 2].map((j) => ({ space: `space_${(s * sectionsN + i) * 3 + j}`, path: `v${j}` })),
      })),
    })),
  };
}

/** 2. Writes made by apply against the number of changes, for four kinds of plans. */
async function writeCost(): Promise<void> {
  const sitesN = 3;
  const sectionsN = quick ? 6 : 12;
  const emu = await startEmulator({
    token: TOKEN,
    seed: { organizations: [{ id: 'org_w', members, spaces: spaces(sitesN * sectionsN * 3) }] },
  });
  const api = client(emu);
  const base = scenarioOrg(sitesN, sectionsN);
  const changed = structuredClone(base);
  // Every tenth value of each kind of field the config sets.
  const tenth = <T>(items: T[], change: (item: T) => void) =>
    items.forEach((item, i) => i % 10 === 9 && change(item));
  const sections = changed.sites!.flatMap((site) => site.sections!);
  tenth(sections, (sec) => (sec.title = `${sec.title} v2`));
  tenth(
    sections.flatMap((sec) => sec.spaces),
    (ss) => (ss.path = `${ss.path}-new`),
  );
  tenth(changed.customFields!, (f) => (f.title = `${f.title} v2`));
  tenth(changed.teams!, (t) => (t.members = [{ user: 'user_39', role: 'owner' }]));
  tenth(
    changed.sites!.concat(changed.sites!, changed.sites!, changed.sites!),
    (site) => (site.basename = `${site.basename}-2`),
  );
  const reordered = structuredClone(changed);
  for (const site of reordered.sites!) site.sections = [...site.sections!].reverse();
  const deleted = structuredClone(reordered);
  deleted.sites = deleted.sites!.slice(1);
  for (const [name, org] of [
    ['create everything from empty', base],
    ['change 10 % of fields', changed],
    ['reorder sections (reverse)', reordered],
    ['delete a site', deleted],
  ] as const) {
    const desired = { organizations: [org] };
    const { plan } = await makePlan(api, desired);
    const before = writes(emu);
    const result = await applyPlan(plan, api);
    const made = writes(emu) - before;
    const converged = (await makePlan(api, desired)).plan.changes.length === 0;
    row(
      `write: ${name}`,
      `${made} writes for ${plan.changes.length} changes${result.ok ? '' : ` (${result.failed} failed)`}${converged ? '' : ' (not converged)'}`,
      'writes = changes',
      made === plan.changes.length && result.ok && converged,
    );
  }
  await api.close();
  await emu.close();
}

/** The most requests that reached the server within any span of `windowMs`. */
function maxInAnyWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (times[i]! - times[j]! >= windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/**
 * 3. Apply about 300 changes under 60 requests per window, against fixed (clock-aligned) and
 * sliding windows, and against a server that sends no rate-limit header at all.
 */
async function rateLimited(model: WindowModel, headers: boolean): Promise<void> {
  const windowSeconds = quick ? 2 : 10;
  const limit = 60;
  const emu = await startEmulator({
    token: TOKEN,
    seed: { organizations: [{ id: 'org_r', members, spaces: spaces(5) }] },
    rateLimit: { limit, windowSeconds, model, headers },
  });
  const api = client(emu);
  const desired: DesiredState = {
    organizations: [
      {
        id: 'org_r',
        policy: { prune: false, maxDeletes: 10 },
        customFields: Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, type: 'text' as const })),
        teams: Array.from({ length: 100 }, (_, i) => ({ title: `Team ${i}` })),
        sites: [
          { title: 'Rate site', shareLinks: Array.from({ length: 99 }, (_, i) => ({ name: `l${i}` })) },
        ],
      },
    ],
  };
  const windowMs = windowSeconds * 1000;
  const t0 = Date.now();
  const { plan } = await makePlan(api, desired);
  const result = await applyPlan(plan, api);
  const seconds = (Date.now() - t0) / 1000;
  const served = emu.requests().filter((r) => r.status !== 429);
  const calls = served.length;
  const throttled = emu.requests().length - calls;
  const bound = lowerBound(calls, { limit, windowMs, model, phaseMs: t0 % windowMs }) / 1000;
  const ratio = seconds / bound;
  const peak = maxInAnyWindow(
    served.map((r) => Date.parse(r.at)),
    windowMs,
  );
  const server = `${model} windows${headers ? '' : ', no rate-limit headers'}`;
  row(
    `rate-limited apply: ${plan.changes.length} changes at ${limit} requests / ${windowSeconds} s, ${server}`,
    `${seconds.toFixed(1)} s for ${calls} calls; bound ${bound.toFixed(1)} s (${ratio.toFixed(2)}×); at most ${peak} in any ${windowSeconds} s; ${throttled} × 429; ${result.failed} failed`,
    headers
      ? `≤ 1.1 × bound, ≤ ${limit} in any ${windowSeconds} s, no 429, no failed change`
      : 'no failed change (429 and Retry-After only)',
    headers ? ratio <= 1.1 && peak <= limit && throttled === 0 && result.ok : result.ok,
  );
  await api.close();
  await emu.close();
}

/** 4. Diff and plan CPU time and peak memory on synthetic models, in a fresh process each. */
function planCpu(): void {
  const script = fileURLToPath(new URL('./plan-cpu.ts', import.meta.url));
  const sizes = quick ? [10_000, 100_000] : [10_000, 50_000, 100_000];
  const results: { n: number; ms: number; peak: number; resources: number; changes: number }[] = [];
  for (const n of sizes) {
    const runs = quick ? 1 : 3;
    let best: { ms: number; peakRssMb: number; resources: number; changes: number } | undefined;
    for (let i = 0; i < runs; i += 1) {
      const out = JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, String(n)], {
          encoding: 'utf8',
        }),
      ) as { ms: number; peakRssMb: number; resources: number; changes: number };
      if (!best || out.ms < best.ms) best = out;
    }
    results.push({
      n,
      ms: best!.ms,
      peak: best!.peakRssMb,
      resources: best!.resources,
      changes: best!.changes,
    });
  }
  for (const r of results) {
    const target = r.n >= 100_000 ? '< 1 s and < 300 MB' : 'near-linear growth';
    const ok = r.n >= 100_000 ? r.ms < 1000 && r.peak < 300 : null;
    row(
      `in-process diff + plan: ${r.resources.toLocaleString('en')} resources (${r.changes.toLocaleString('en')} changes)`,
      `${r.ms.toFixed(0)} ms, peak RSS ${r.peak.toFixed(0)} MB`,
      target,
      ok,
    );
  }
  const small = results[0]!;
  const large = results[results.length - 1]!;
  const growth = large.ms / large.resources / (small.ms / small.resources);
  row(
    'in-process diff + plan: growth per resource, largest vs smallest',
    `${growth.toFixed(2)}× the time per resource`,
    '≈ 1 (near-linear), < 2',
    growth < 2,
  );
  notes.push(
    'In-process diff + plan: only the CPU time of `diff` and `buildPlan`, in a child running under tsx; its peak RSS includes Node.js, the tsx loader and the synthetic models. The end-to-end figures are the process rows above.',
  );
}

/**
 * 0. Start-up: `docsync --version` (the built CLI, dist/cli.js) against `node -e 0`, alternated,
 * both with bench/usage.mjs preloaded (it reports each one's own CPU): the CLI's own start-up cost
 * as a ratio, which the machine's speed and load affect less than seconds.
 */
async function startup(): Promise<void> {
  const runs = quick ? 5 : 15;
  const cli: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    bare.push((await runCli(['0'], process.env, [], '-e')).cpuMs); // node --import usage.mjs -e 0
    cli.push((await runCli(['--version'], process.env, [], CLI)).cpuMs);
  }
  const ratio = median(cli) / median(bare);
  row(
    `start-up: \`docsync --version\` CPU against \`node -e 0\`, median of ${runs} each`,
    `${median(cli).toFixed(0)} ms against ${median(bare).toFixed(0)} ms (${ratio.toFixed(2)}×)`,
    '≤ 2.5 ×',
    ratio <= 2.5,
  );
  notes.push(
    "Start-up: user + system CPU of each process as it reports it at exit (bench/usage.mjs, preloaded into both, so both also pay for Node.js's ES module loader); dist/cli.js is the esbuild bundle `npm run build` writes (decision 45): `--version` loads the dispatcher and commander, no command's code.",
  );
}

/** 5. `docsync plan` as a process (the built CLI) against the emulator: CPU, peak RSS, wall. */
async function planProcess(): Promise<void> {
  // Five runs, not three: the machine's speed moves one run by ±20 %, and a median of five is
  // moved by one slow or fast run less than a median of three.
  const runs = quick ? 1 : 5;
  const targets: Record<number, { cpuMs: number; rssMb?: number }> = {
    10_000: { cpuMs: 1000 },
    100_000: { cpuMs: 3000, rssMb: 250 },
  };
  for (const n of [10_000, 100_000]) {
    const f: ProcessFigures = await measurePlanProcess(n, runs, [], quick ? 0 : 120_000);
    const t = targets[n]!;
    const m = f.median;
    const each = f.runs
      .map(
        (r) =>
          `${(r.cpuMs / 1000).toFixed(2)} s / ${r.peakRssMb.toFixed(0)} MB at load ${r.load?.toFixed(1)}`,
      )
      .join(', ');
    const ok = m.cpuMs <= t.cpuMs && (t.rssMb === undefined || m.peakRssMb <= t.rssMb);
    row(
      `docsync plan as a process: ${f.resources.toLocaleString('en')} resources in ${f.files} files${runs > 1 ? `, median of ${runs}` : ''}`,
      `CPU ${(m.cpuMs / 1000).toFixed(2)} s (user ${(m.userMs / 1000).toFixed(2)} + sys ${(m.systemMs / 1000).toFixed(2)}), peak RSS ${m.peakRssMb.toFixed(0)} MB, wall ${(m.wallMs / 1000).toFixed(2)} s${runs > 1 ? ` (runs: ${each})` : ''}`,
      `CPU ≤ ${t.cpuMs / 1000} s${t.rssMb !== undefined ? `, peak RSS ≤ ${t.rssMb} MB` : ''}`,
      ok,
    );
  }
  notes.push(
    'docsync plan as a process: `node dist/cli.js plan` (built first) against the emulator on loopback, on the synthetic organization of bench/scenario.ts written as YAML files (one for policy, teams and custom fields, one per 20 sites) and seeded into the emulator as the live side. CPU is user + system time of the CLI process alone and peak RSS its maximum resident set, both reported by the process itself at exit (`process.resourceUsage()`, bench/usage.mjs); wall time includes the emulator answering in the benchmark process, which shares the 2 cores.',
  );
}

/** O(n²) longest increasing subsequence, independent of the planner's O(n log n) one. */
function lisLength(seq: number[]): number {
  const best = seq.map(() => 1);
  for (let i = 0; i < seq.length; i += 1)
    for (let j = 0; j < i; j += 1) if (seq[j]! < seq[i]! && best[j]! + 1 > best[i]!) best[i] = best[j]! + 1;
  return Math.max(0, ...best);
}

/** 5. Moves issued for random permutations of 50 sections against n − LIS. */
function reorders(): void {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const n = 50;
  const trials = quick ? 200 : 1000;
  let moves = 0;
  let optimal = 0;
  let equal = 0;
  for (let t = 0; t < trials; t += 1) {
    const current = Array.from({ length: n }, (_, i) => `s${i}`);
    const desired = [...current];
    for (let i = n - 1; i > 0; i -= 1) {
      const j = Math.floor(rnd() * (i + 1));
      [desired[i], desired[j]] = [desired[j]!, desired[i]!];
    }
    const m = planMoves(desired, current).length;
    const o = n - lisLength(desired.map((x) => current.indexOf(x)));
    moves += m;
    optimal += o;
    if (m === o) equal += 1;
  }
  row(
    `reorders: ${trials} random permutations of ${n} sections`,
    `${(moves / trials).toFixed(2)} moves on average; n − LIS ${(optimal / trials).toFixed(2)}; equal in ${equal}/${trials}`,
    'moves = n − LIS',
    equal === trials,
  );
}

/**
 * 6. The request-heavy organization of issue 33: `docsync plan` against the floor (the same list
 * GETs with bare undici and JSON.parse), the ratio of their CPU in the same run, and the emulator's
 * own throughput while it serves the floor.
 */
async function heavyPlan(): Promise<void> {
  const shape = quick ? HEAVY_QUICK : HEAVY_FULL;
  const f = await measureHeavy(shape, quick ? 1 : 5, { waitForQuietMs: quick ? 0 : 120_000 });
  const m = medianRun(f);
  const name = `${shape.sites} sites × ${shape.sectionsPerSite} sections × ${shape.spacesPerSection} site spaces + ${shape.shareLinksPerSite} share links, ${shape.teams.toLocaleString('en')} teams × ${shape.membersPerTeam} members, ${shape.customFields} fields`;
  const each = f.runs.map((r) => `${r.ratio.toFixed(2)}×`).join(', ');
  row(
    `request-heavy plan against the floor: ${f.resources.toLocaleString('en')} resources (${name}) in ${f.files} files, ${m.requests.toLocaleString('en')} GETs${f.runs.length > 1 ? `, median of ${f.runs.length}` : ''}`,
    `docsync CPU ${(m.docsync.cpuMs / 1000).toFixed(2)} s, peak RSS ${m.docsync.peakRssMb.toFixed(0)} MB; floor CPU ${(m.floor.cpuMs / 1000).toFixed(2)} s; ratio ${m.ratio.toFixed(2)}×${f.runs.length > 1 ? ` (runs: ${each})` : ''}`,
    'ratio ≤ 1.5×, peak RSS ≤ 250 MB',
    m.ratio <= 1.5 && m.docsync.peakRssMb <= 250,
  );
  const rates = f.runs.map((r) => r.emulatorPerCpuSecond);
  const rate = rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
  row(
    "emulator throughput: the same list GETs, per second of the emulator's own CPU (one core)",
    `${rate.toFixed(0)} requests/s`,
    '≥ 2,000 requests/s',
    rate >= 2000,
  );
  notes.push(
    'Request-heavy plan (bench/heavy.ts, bench/heavy-scenario.ts): the organization of issue 33, one config file per site and one for the organization, the live side equal to the config (an empty plan: every request is a list read). The floor (bench/floor.mjs) replays the GETs `docsync plan` made, in its order, with bare undici (a keep-alive pool of 4 connections, 4 in flight) and `JSON.parse`, nothing else; its CPU and peak RSS are measured as the CLI process is (bench/usage.mjs). The ratio of the two CPU times is taken within one run (a ratio is stable on a noisy machine, absolute seconds are not); the row shows the run with the median ratio. Emulator throughput: requests the floor made divided by the CPU time (user + system) the benchmark process — the emulator, nothing else runs there meanwhile — spent while the floor ran.',
  );
}

/** The latency row's note when the emulator could not be scheduled ahead of the client. */
const NOT_PRIORITIZED = "; the emulator at the client's priority (EMULATOR_PRIORITY needs root)";

/**
 * 7. Plan wall time on a realistic API: every answer 100 ms ± 20 ms late, 600 requests per second
 * (sliding, announced in RateLimit-Policy), concurrency growing from 4 as the headers allow (up to
 * the CLI's default `--max-concurrency`). The bound: the last request cannot start before the rate limit lets it (`lowerBound`) and
 * its answer comes one (shortest) latency later; nor before the longest chain of reads that must
 * happen in order (a list's pages one after the other, then the reads below an item) has run, each
 * page for the latency the emulator gave it. Config loading is not in the time (it is the CPU rows' business).
 */
async function latencyPlan(): Promise<void> {
  const latencyMs = 100;
  const jitterMs = 20;
  const limit = 600;
  const windowMs = 1000;
  // `chain`: the list whose pages must be read one after the other (its path in the request log), and
  // whether a read below one of its items follows the last page.
  const cases: { name: string; seed: unknown; config: string; chain: { list: RegExp; below: boolean } }[] =
    [];
  const dir = mkdtempSync(join(tmpdir(), 'docsync-latency-'));
  try {
    const heavy = quick ? HEAVY_QUICK : HEAVY_FULL;
    const h = writeHeavyScenario(heavy, join(dir, 'heavy'));
    // teams: ⌈teams / 1000⌉ pages in order, then a team's members; sites: one page, then a site's lists.
    cases.push({
      name: `request-heavy organization (${heavyResources(heavy).toLocaleString('en')} resources)`,
      seed: h.seed,
      config: join(dir, 'heavy'),
      chain: { list: TEAMS_LIST, below: true },
    });
    const n = quick ? 10_000 : 100_000;
    const b = writeScenario(n, join(dir, 'bench'));
    // The longest list's pages one after the other: 15,000 teams, 15 pages (its 50 custom fields are
    // one page; the sites' page then a site's sections, 2 reads).
    cases.push({
      name: `benchmark organization (${b.resources.toLocaleString('en')} resources)`,
      seed: b.seed,
      config: join(dir, 'bench'),
      chain: { list: TEAMS_LIST, below: false },
    });
    for (const c of cases) {
      const faults = {
        latencyMs,
        latencyJitterMs: jitterMs,
        seed: 33,
        rateLimit: { limit, windowSeconds: windowMs / 1000, model: 'sliding' },
      };
      // The emulator in its own process (in this one it would share the client's thread), above
      // the client in the scheduler's order where allowed: a server elsewhere (bench/emulator-process.ts).
      const emulator = await startEmulatorProcess(dir, c.seed, faults);
      const url = emulator.url;
      const { desired } = await loadConfig(c.config);
      // As the CLI makes it: 4 in flight at the start, growing as the rate-limit headers allow.
      const api = new ApiClient({
        apiUrl: url,
        token: TOKEN,
        concurrency: 4,
        maxConcurrency: DEFAULT_MAX_CONCURRENCY,
      });
      const load = loadavg()[0]!;
      const t0 = Date.now();
      const cpu0 = process.cpuUsage();
      // When the live read's lists were all done (the last moment every list started had ended).
      let readsDone = { ms: 0, cpu: cpu0 };
      await makePlan(api, desired!, (p) => {
        if (p.listsDone === p.listsStarted) readsDone = { ms: Date.now() - t0, cpu: process.cpuUsage(cpu0) };
      });
      const ms = Date.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const readCpuMs = (readsDone.cpu.user + readsDone.cpu.system) / 1000;
      await api.close();
      const log = (await (await fetch(`${url}/_emulator/requests`)).json()) as {
        path: string;
        status: number;
        at: string;
        finishedAt?: string;
        delayMs?: number;
      }[];
      const calls = log.filter((r) => r.status !== 429).length;
      // When the last answer left the emulator, and the most requests it held at once.
      const lastAnswer = Math.max(...log.map((r) => Date.parse(r.finishedAt ?? r.at))) - t0;
      const edges = log.flatMap((r) => [
        [Date.parse(r.at), 1],
        [Date.parse(r.finishedAt ?? r.at), -1],
      ]);
      edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
      let inFlight = 0;
      let mostInFlight = 0;
      for (const [, d] of edges) mostInFlight = Math.max(mostInFlight, (inFlight += d!));
      const throttled = log.length - calls;
      await emulator.stop();
      const fastest = latencyMs - jitterMs;
      const rateBound = lowerBound(calls, { limit, windowMs, model: 'sliding' }) + fastest;
      // Each page of the chain waits for the one before: the chain takes at least the latencies the
      // emulator gave its pages (drawn from latency ± jitter), then the shortest for a read below.
      const pages = log.filter((r) => r.status === 200 && c.chain.list.test(r.path));
      const chainReads = pages.length + (c.chain.below ? 1 : 0);
      const chainBound =
        pages.reduce((sum, r) => sum + (r.delayMs ?? fastest), 0) + (c.chain.below ? fastest : 0);
      const bound = Math.max(rateBound, chainBound);
      const fixed4 = ((calls / 4) * latencyMs) / 1000;
      // The client is one thread: its own CPU time is a bound too, whatever the API allows. Stated
      // beside the API's, never folded into it: the target is the API's bound.
      const limits =
        cpuMs > bound
          ? `the client's CPU limits (${(ms / cpuMs).toFixed(2)}× its CPU time)`
          : 'the API (rate limit and chains) limits';
      const s1 = (v: number) => `${(v / 1000).toFixed(1)} s`;
      row(
        `plan wall time at ${latencyMs} ± ${jitterMs} ms latency, ${limit} requests/s: ${c.name}`,
        `${s1(ms)} for ${calls} GETs; API bound ${s1(bound)} (${(ms / bound).toFixed(2)}×; rate ${s1(rateBound)}, chain of ${chainReads} reads ${s1(chainBound)}); reads done at ${s1(readsDone.ms)}, last answer at ${s1(lastAnswer)}, at most ${mostInFlight} in flight; client CPU ${s1(cpuMs)} (${s1(readCpuMs)} while reading, ${s1(cpuMs - readCpuMs)} after), so ${limits}; ${throttled} × 429; a fixed 4 in flight would need ≥ ${fixed4.toFixed(0)} s; load ${load.toFixed(1)} on ${cpus().length} cores${emulator.prioritized ? '' : NOT_PRIORITIZED}`,
        '≤ 1.2 × API bound, no 429',
        ms <= 1.2 * bound && throttled === 0,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  notes.push(
    `Plan wall time on a realistic API: the emulator delays each answer ${latencyMs} ms ± ${jitterMs} ms (uniform, \`latencyJitterMs\`) and allows ${limit} requests per second (sliding, announced in RateLimit-Policy); the client starts at 4 requests in flight and grows to what the limit allows at the shortest recent latency it sees, twice over, up to ${DEFAULT_MAX_CONCURRENCY} (the CLI's default \`--max-concurrency\`; decisions 27 and 43); a request leaves its queue when its slot of the rate budget comes (a list's next page first, then the route furthest behind, routes sharing the turns in proportion to what each has waiting), the pacer makes up starts a busy event loop missed and counts a start again when undici writes it (decision 43). The bound is the larger of two: the rate limit's (\`lowerBound\` for the GETs made, plus the shortest latency for the last answer) and the longest chain of reads that must happen in order (a list's pages one after the other, then a read below one of its items: 3 pages of teams then a team's members for the request-heavy organization, 15 pages of teams for the benchmark organization), each page taking at least the latency the emulator gave it (the request log's \`delayMs\`, drawn from 100 ± 20 ms: about 1.5 s for 15 pages, where 15 × the shortest latency, 1.2 s, is a bound no client reaches but by luck), a read below at least the shortest latency. Config loading is not in the time. The emulator runs in a process of its own, scheduled ahead of the client (\`EMULATOR_PRIORITY\`, default −10, where the user may raise a priority; the row says when it could not): it stands for a server on other machines, whose clock and rate-limit count never wait for a core the client holds (decision 43, "The emulator apart"). The row also says when the live read's lists were all done and when the last answer left the emulator (from its request log, relative to the plan's start), the most requests the emulator held at once, and the CPU the client spent (user + system of the benchmark process, which is then only the client), while reading and after (resolving references, the diff, the plan): the client is one thread, so its CPU time is a bound of its own; when it exceeds the API's bound, the row says the client's CPU limits (the CPU rows' business), and the target stays the API's bound.`,
  );
}

const started = Date.now();
const loadBefore = loadavg()[0]!;
if (runs('read')) await readCost();
if (runs('write')) await writeCost();
if (runs('rate')) {
  await rateLimited('fixed', true);
  await rateLimited('sliding', true);
  await rateLimited('fixed', false);
}
if (runs('startup') || runs('process') || runs('heavy')) await buildCli();
if (runs('startup')) await startup();
if (runs('process')) await planProcess();
if (runs('heavy')) await heavyPlan();
if (runs('latency')) await latencyPlan();
if (runs('cpu')) planCpu();
if (runs('reorders')) reorders();
if (runs('access')) {
  const a = measureAccess();
  row(
    'effective access, 10,000 spaces × 300 teams (now, after a plan, their difference; in-process)',
    `${(a.ms / 1000).toFixed(2)} s CPU; ${a.rows} matrix rows, ${a.changes} access change(s)`,
    '< 1 s',
    a.ms < 1_000,
  );
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, Node.js ${process.version}, ${process.platform}/${process.arch}; load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`;
const table = [
  '| benchmark | measured | target | |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.bench} | ${r.measured} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'met' : '**missed**'} |`,
  ),
].join('\n');
const doc = `# Benchmarks

Measured by \`npm run bench -- --write\` on ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine}. Total run time ${((Date.now() - started) / 1000).toFixed(0)} s.

${table}

${notes.map((n) => `- ${n}`).join('\n')}
- Reads use list endpoints only (one request per page of up to 1000 items); the one-GET-per-object
  count is what a tool reading each site, section, site space, share link, field, team and
  membership on its own would send.
- Writes: exactly one API call per change; creations whose fields the creation call cannot take
  are two changes (see docs/decisions/0002-one-call-per-change.md).
- Rate-limited runs: the bound is \`lowerBound\` (src/api/rate-bound.ts), the earliest time the last
  call can start for a client that keeps both the server's rule (fixed: at most the limit per
  clock-aligned window, starting as far into a window as the run did; sliding: per any span of the
  window) and docsync's own (never more than the limit within any span of the window): each call
  at the earliest moment both allow, which is optimal. docsync spreads calls evenly,
  (window + 1 %) / limit apart, so it finishes within one window of the bound (within 1.1 × when
  the run spans many windows or ends near a window's multiple, as here). Without rate-limit
  headers it only reacts: a 429 pauses every call until Retry-After.
`;
console.log(`\n${table}\n`);
console.log(`Machine: ${machine}`);
if (write) {
  // Sections written by hand after the generated part (`## …`: the Action's start-up, issue 33's) stay.
  const file = new URL('../docs/benchmarks.md', import.meta.url);
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const kept = previous.indexOf('\n## ');
  writeFileSync(file, kept >= 0 ? `${doc}${previous.slice(kept)}` : doc);
  console.log('wrote docs/benchmarks.md');
} else console.log('docs/benchmarks.md left as is (pass --write to update it)');
process.exitCode = rows.some((r) => r.ok === false) ? 1 : 0;
