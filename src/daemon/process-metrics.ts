import { createRequire } from 'node:module';
import type { IntervalHistogram, PerformanceObserver } from 'node:perf_hooks';
import { collectDefaultMetrics, type Registry } from 'prom-client';

/** The `perf_hooks` object prom-client requires (the same object: Node caches a builtin module). */
type PerfHooks = {
  monitorEventLoopDelay: (options?: { resolution?: number }) => IntervalHistogram;
  PerformanceObserver: typeof PerformanceObserver;
};
const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as PerfHooks;

/**
 * prom-client's default metrics (process CPU, memory, handles, event-loop lag, GC) into `registry`,
 * and a stop that ends what they started: the event-loop delay monitor and the GC observer, which
 * prom-client keeps to itself and never stops (its issue 494). Without it, each daemon run in one
 * process (the in-process daemons of the tests, decision 41) leaves a monitor sampling the event
 * loop for good. The two are taken as prom-client makes them, during its synchronous call only
 * (decision 44).
 */
export function collectProcessMetrics(registry: Registry): () => void {
  const monitors: IntervalHistogram[] = [];
  const observers: PerformanceObserver[] = [];
  const { monitorEventLoopDelay, PerformanceObserver: Observer } = perfHooks;
  perfHooks.monitorEventLoopDelay = (options) => {
    const monitor = monitorEventLoopDelay(options);
    monitors.push(monitor);
    return monitor;
  };
  perfHooks.PerformanceObserver = class extends Observer {
    constructor(...args: ConstructorParameters<typeof PerformanceObserver>) {
      super(...args);
      observers.push(this);
    }
  };
  try {
    collectDefaultMetrics({ register: registry });
  } finally {
    perfHooks.monitorEventLoopDelay = monitorEventLoopDelay;
    perfHooks.PerformanceObserver = Observer;
  }
  return () => {
    for (const monitor of monitors.splice(0)) monitor.disable();
    for (const observer of observers.splice(0)) observer.disconnect();
  };
}
