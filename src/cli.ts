#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { main } from './cli/main.js';

// Grow the heap to 2.5 times the live data after a full collection instead of up to four times: a
// plan of 100k resources then peaks near 220 MB instead of 260 MB, for a few more collections
// (docs/decisions/0023-perf-plan-process.md). Read by V8 at every collection, so setting it here works.
setFlagsFromString('--heap-growing-percent=150');

process.exitCode = await main(process.argv);
