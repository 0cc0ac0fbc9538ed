#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { main } from './cli/main.js';

// Grow the heap to 2.5 times the live data after a full collection instead of up to four times: a
// plan of 100k resources then peaks near 220 MB instead of 260 MB, for a few more collections
// (docs/decisions/0023-perf-plan-process.md). Read by V8 at every collection, so setting it here works.
setFlagsFromString('--heap-growing-percent=150');

// A reader that leaves early (`docsync plan | head`) closes the pipe: the rest of the output is
// dropped, and the command still runs to its end (an apply is not cut halfway) and exits with its
// own code, instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });

process.exitCode = await main(process.argv);
