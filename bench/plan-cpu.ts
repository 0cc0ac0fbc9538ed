// Child process of the benchmark: CPU time of diff + plan for a synthetic model of N resources.
import { capabilitiesOf } from '../src/api/capabilities.js';
import { diff } from '../src/reconcile/diff.js';
import { buildPlan } from '../src/plan/build.js';
import { syntheticModels } from './synthetic.js';

const n = Number(process.argv[2] ?? 10_000);
const { desired, live, resources } = syntheticModels(n);
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
// CPU time of this process (user + system), not wall time: other work on the machine does not count.
const t0 = process.cpuUsage();
const plan = buildPlan(diff(desired, live, { capabilities: capabilitiesOf('seed') }));
const used = process.cpuUsage(t0);
const ms = (used.user + used.system) / 1000;
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
