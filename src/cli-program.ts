// The shipped CLI's program (dist/docsync.cjs): CommonJS, so that the launcher can compile it with
// a V8 code cache (src/code-cache.ts, decision 46). No top-level await in CommonJS: a rejection is
// an unhandled one, which ends the process with code 1 and the error, as the ES module did.
import { startCli } from './cli/start.js';

void startCli(process.argv);
