// Child process of the benchmark: time diff + plan for a synthetic model of N resources.
import { capabilitiesOf } from '../src/api/capabilities.js';
import { diff } from '../src/diff/diff.js';
import { buildPlan } from '../src/plan/build.js';
import { syntheticModels } from './synthetic.js';

const n = Number(process.argv[2] ?? 10_000);
const { desired, live, resources } = syntheticModels(n);
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const t0 = process.hrtime.bigint();
const plan = buildPlan(diff(desired, live, { capabilities: capabilitiesOf('seed') }));
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
process.stdout.write(
  JSON.stringify({
    resources,
    changes: plan.changes.length,
    ms,
    peakRssMb: peak / 1048576,
    rssBeforeMb: rssBefore / 1048576,
  }),
);
