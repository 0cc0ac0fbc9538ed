#!/usr/bin/env node
// `docsync` as shipped (dist/cli.js): run the program beside it (dist/docsync.cjs) with the code
// cache the build made (src/code-cache.ts, docs/decisions/0046-code-cache.md).
// DOCSYNC_BUILD_CODE_CACHE=<file> is the build's warm-up (scripts/build.mjs): at exit, the cache
// of what the run compiled is written there.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyV8Settings } from './v8-settings.js';
import { runWithCodeCache } from './code-cache.js';

applyV8Settings(); // first: V8's flags are part of what a code cache must match
const program = join(dirname(fileURLToPath(import.meta.url)), 'docsync.cjs');
const cacheOut = process.env.DOCSYNC_BUILD_CODE_CACHE;
const run = runWithCodeCache(program, { viaRequire: process.sourceMapsEnabled && !cacheOut });
if (cacheOut)
  process.once('exit', () => {
    try {
      run.writeCache(cacheOut);
    } catch (error) {
      // The build's warm-up (scripts/build.mjs) fails on it: no stack, the file and the reason.
      process.stderr.write(`docsync: cannot write the code cache ${cacheOut}: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  });
