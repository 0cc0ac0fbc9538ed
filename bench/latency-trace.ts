// `npx tsx bench/latency-trace.ts [heavy|bench] [--quick]`: where the latency row's wall time goes.
// Plans one organization of the latency benchmark (bench/run.ts, section 7) against the emulator in
// its own process (100 ± 20 ms, 600 requests/s sliding) and prints, per 100 ms, the requests the
// emulator received, held and answered, the 429s, the client's queue (waiting, running, allowed in
// flight) and its event loop's busy fraction; then the first and last start of each route. The first line
// gives the 429s, the client's CPU (while reading, and in all) and the load average.
import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiClient } from '../src/api/client.js';
import { DEFAULT_MAX_CONCURRENCY } from '../src/cli/context.js';
import { loadConfig } from '../src/config/load.js';
import { makePlan } from '../src/pipeline/plan-run.js';
import { HEAVY_FULL, HEAVY_QUICK, writeHeavyScenario } from './heavy-scenario.js';
import { startEmulatorProcess } from './emulator-process.js';
import { writeScenario } from './scenario.js';
import { isChainPath, printSteps, traceChain } from './chain-steps.js';

const which = process.argv[2] === 'bench' ? 'bench' : 'heavy';
const quick = process.argv.includes('--quick');
const BUCKET = 100;
const dir = mkdtempSync(join(tmpdir(), 'docsync-trace-'));
try {
  const seed =
    which === 'heavy'
      ? writeHeavyScenario(quick ? HEAVY_QUICK : HEAVY_FULL, dir).seed
      : writeScenario(quick ? 10_000 : 100_000, dir).seed;
  const faults = {
    latencyMs: 100,
    latencyJitterMs: 20,
    seed: 33,
    rateLimit: { limit: 600, windowSeconds: 1, model: 'sliding' },
  };
  // The emulator in its own process: in this one it would share the client's thread.
  const emulator = await startEmulatorProcess(dir, seed, faults);
  const url = emulator.url;
  const { desired } = await loadConfig(dir);
  const api = new ApiClient({
    apiUrl: url,
    token: 'bench-token',
    concurrency: 4,
    maxConcurrency: DEFAULT_MAX_CONCURRENCY,
  });
  // The client's queue, for the trace only.
  const http = api.http as unknown as { waiting: { size: number }; running: number; concurrency: number };
  // When each request took its slot in the pacer (to compare with when the emulator saw it).
  const slots: number[] = [];
  const budget = api.http.budget;
  const acquire = budget.acquire.bind(budget);
  budget.acquire = (waiting?: number) => {
    const wait = acquire(waiting);
    if (wait <= 0) slots.push(Date.now());
    return wait;
  };
  // When undici wrote each request's headers to its socket; of the chain (the teams list's pages,
  // one after the other), when the client wrote each page's request and when it had the answer's
  // headers (its event loop got to it).
  const sent: number[] = [];
  const chainWritten: number[] = [];
  const chainHeard: number[] = [];
  diagnostics.subscribe('undici:client:sendHeaders', (m) => {
    const { request } = m as { request: { path: string } };
    sent.push(Date.now());
    if (isChainPath(request.path)) chainWritten.push(Date.now());
  });
  diagnostics.subscribe('undici:request:headers', (m) => {
    const { request } = m as { request: { path: string } };
    if (isChainPath(request.path)) chainHeard.push(Date.now());
  });
  const samples: {
    t: number;
    elu: number;
    waiting: number;
    running: number;
    allowed: number;
    margin: number;
  }[] = [];
  const t0 = Date.now();
  const t0Hr = performance.now();
  const steps = traceChain(api, t0Hr);
  // For a CPU profile (--cpu-prof): its clock is hrtime's, in µs.
  console.log(`t0 hrtime ${process.hrtime.bigint() / 1000n} µs`);
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    samples.push({
      t: Date.now() - t0,
      elu: performance.eventLoopUtilization(now, last).utilization,
      waiting: http.waiting.size,
      running: http.running,
      allowed: http.concurrency,
      margin: budget.marginMs,
    });
    last = now;
  }, BUCKET);
  let readsDone = 0;
  // The client's CPU (user + system, all threads: this process is only the client) while reading
  // and after (references, diff, plan).
  const cpu0 = process.cpuUsage();
  let readCpu = cpu0;
  await makePlan(api, desired!, (p) => {
    if (p.listsDone === p.listsStarted) {
      readsDone = Date.now() - t0;
      readCpu = process.cpuUsage(cpu0);
    }
  });
  const ms = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  await api.close();
  const log = (await (await fetch(`${url}/_emulator/requests`)).json()) as {
    path: string;
    status: number;
    at: string;
    finishedAt?: string;
    delayMs?: number;
  }[];
  await emulator.stop();
  const n = Math.ceil(ms / BUCKET) + 1;
  const started = new Array<number>(n).fill(0);
  const answered = new Array<number>(n).fill(0);
  const throttled = new Array<number>(n).fill(0);
  const held = new Array<number>(n).fill(0);
  const routes = new Map<string, { first: number; firstAnswered: number; last: number; count: number }>();
  for (const r of log) {
    const a = Date.parse(r.at) - t0;
    const f = Date.parse(r.finishedAt ?? r.at) - t0;
    const b = Math.max(0, Math.floor(a / BUCKET));
    started[b] = (started[b] ?? 0) + 1;
    if (r.status === 429) throttled[b] = (throttled[b] ?? 0) + 1;
    const e = Math.max(0, Math.floor(f / BUCKET));
    answered[e] = (answered[e] ?? 0) + 1;
    for (let i = b; i <= e && i < n; i += 1) held[i] = (held[i] ?? 0) + 1;
    const route = r.path.replace(/\/(org|site|team|space|section|sitesp|share)[_A-Za-z0-9-]*/g, '/$1…');
    const seen = routes.get(route) ?? { first: a, firstAnswered: f, last: a, count: 0 };
    if (a < seen.first) [seen.first, seen.firstAnswered] = [a, f];
    seen.last = Math.max(seen.last, a);
    seen.count += 1;
    routes.set(route, seen);
  }
  const cpuMs = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);
  console.log(
    `${which}: plan ${ms} ms, reads done ${readsDone} ms, ${log.length} requests (${log.filter((r) => r.status === 429).length} × 429); client CPU ${cpuMs(cpu)} ms (${cpuMs(readCpu)} ms while reading); load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log('t(ms)  recv  429  held  answ | waiting running allowed  elu margin');
  for (let i = 0; i < n; i += 1) {
    const s = samples.find((x) => x.t >= i * BUCKET && x.t < (i + 1) * BUCKET + BUCKET / 2);
    console.log(
      `${String(i * BUCKET).padStart(5)} ${String(started[i]).padStart(5)} ${String(throttled[i]).padStart(4)} ${String(held[i]).padStart(5)} ${String(answered[i]).padStart(5)} | ${String(s?.waiting ?? '').padStart(7)} ${String(s?.running ?? '').padStart(7)} ${String(s?.allowed ?? '').padStart(7)} ${s ? s.elu.toFixed(2) : ''} ${s ? String(Math.round(s.margin)).padStart(6) : ''}`,
    );
  }
  // The k-th slot against the k-th arrival: how late the emulator saw the starts the pacer counted.
  const arrivals = log.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
  const lags = slots.map((t, k) => (arrivals[k] ?? t) - t).sort((a, b) => a - b);
  const q = (f: number) => lags[Math.min(lags.length - 1, Math.floor(f * lags.length))];
  console.log(
    `slot → arrival (ms): median ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}, max ${lags.at(-1)}; ${slots.length} slots, ${arrivals.length} arrivals`,
  );
  const gap = (from: number[], to: number[]) => {
    const d = from.map((t, k) => (to[k] ?? t) - t).sort((a, b) => a - b);
    return [0.5, 0.9, 0.99, 1].map((f) => d[Math.min(d.length - 1, Math.floor(f * d.length))]).join(' / ');
  };
  console.log(
    `slot → sent (p50/p90/p99/max ms): ${gap(slots, sent)}; sent → arrival: ${gap(sent, arrivals)}`,
  );
  // The most starts within any 1 s, as the pacer counted them and as the emulator saw them.
  const most = (ts: number[]) => {
    let best = 0;
    for (let i = 0, j = 0; i < ts.length; i += 1) {
      while (ts[i]! - ts[j]! >= 1000) j += 1;
      best = Math.max(best, i - j + 1);
    }
    return best;
  };
  console.log(`most in any 1 s: pacer ${most(slots)}, sent ${most(sent)}, emulator ${most(arrivals)}`);
  // The plan's start: its first request written (the CPU before it: the read's scope, the lists' setup).
  console.log(
    `first request written at ${(sent[0] ?? t0) - t0} ms, first slot at ${(slots[0] ?? t0) - t0} ms`,
  );
  for (const [route, r] of [...routes].sort((a, b) => a[1].first - b[1].first))
    console.log(`${route}: ${r.count} from ${r.first} (answered at ${r.firstAnswered}) to ${r.last} ms`);
  // The chain page by page: written by the client, received and answered by the emulator, heard by
  // the client; its own time is the sum of the emulator's latencies, the rest is the client's.
  const chain = log
    .filter((r) => isChainPath(r.path) && r.status !== 429)
    .map((r) => ({
      at: Date.parse(r.at) - t0,
      done: Date.parse(r.finishedAt ?? r.at) - t0,
      delay: r.delayMs ?? 0,
    }))
    .sort((a, b) => a.at - b.at);
  let own = 0;
  console.log('chain page: written  recv  answ  heard | latency  answered → next written');
  chain.forEach((c, k) => {
    own += c.done - c.at;
    const w = chainWritten[k] !== undefined ? chainWritten[k]! - t0 : NaN;
    const h = chainHeard[k] !== undefined ? chainHeard[k]! - t0 : NaN;
    const next = chainWritten[k + 1] !== undefined ? chainWritten[k + 1]! - t0 - c.done : NaN;
    console.log(
      `${String(k + 1).padStart(10)}: ${String(w).padStart(7)} ${String(c.at).padStart(5)} ${String(c.done).padStart(5)} ${String(h).padStart(6)} | ${String(c.done - c.at).padStart(7)}  ${String(next).padStart(6)}`,
    );
  });
  printSteps(steps, chain);
  const lastAnswer = Math.max(...log.map((r) => Date.parse(r.finishedAt ?? r.at))) - t0;
  console.log(
    `chain: ${chain.length} pages, own time ${own} ms; reads done − own time ${readsDone - own} ms; last answer sent at ${lastAnswer} ms; after the reads: ${ms - readsDone} ms wall, ${cpuMs(cpu) - cpuMs(readCpu)} ms CPU`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
