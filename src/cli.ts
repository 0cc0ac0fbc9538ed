#!/usr/bin/env node
// The CLI as one ES module: run by tsx from src/ and bundled as the tests' CLI (decision 45).
// What `npm run build` ships is the same program as CommonJS (src/cli-program.ts) started by
// src/cli-launcher.ts with a code cache (decision 46).
import { startCli } from './cli/start.js';
import { applyV8Settings } from './v8-settings.js';

// The launcher sets them for the CommonJS program before compiling it; this entry sets its own.
applyV8Settings();
await startCli(process.argv);
