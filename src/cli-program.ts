// The shipped CLI's program (dist/docsync.cjs): CommonJS, so that the launcher can compile it with
// a V8 code cache (src/code-cache.ts, decision 46). No top-level await in CommonJS: a rejection is
// an unhandled one, which ends the process with code 1 and the error, as the ES module did. A
// command whose work never settles while nothing keeps the process alive ended the ES module
// with code 13 (an unsettled top-level await); here it ends with 1, never with a success: set
// at exit, not beforehand, because commander takes the exit code of help asked for (`docsync help
// plan`) from process.exitCode, and a preset 1 made that success a failure.
import { startCli } from './cli/start.js';

let settled = false;
process.once('exit', () => {
  // Nothing settled and nobody chose a code (process.exit(0) chooses one): the work never ended.
  if (!settled && process.exitCode === undefined) process.exitCode = 1;
});
void startCli(process.argv).finally(() => {
  settled = true;
});
