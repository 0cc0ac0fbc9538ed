import { setFlagsFromString } from 'node:v8';

/**
 * Grow the heap to 2.5 times the live data after a full collection instead of up to four times: a
 * plan of 100k resources then peaks near 220 MB instead of 260 MB, for a few more collections
 * (docs/decisions/0023-perf-plan-process.md). Read by V8 at every collection, so setting it at
 * start works. The launcher (src/cli-launcher.ts) sets it before it compiles the program: V8's
 * flags are part of what a code cache must match (decision 46).
 */
export const growHeapGently = () => setFlagsFromString('--heap-growing-percent=150');
