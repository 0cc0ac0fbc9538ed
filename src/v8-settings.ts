import { setFlagsFromString } from 'node:v8';

/**
 * V8's settings for a docsync process (the CLI, the GitHub Action), set at its start. The
 * launcher (src/cli-launcher.ts) sets them before it compiles the program: V8's flags are part of
 * what a code cache must match (decision 46).
 *
 * - The heap grows to 2.5 times the live data after a full collection instead of up to four times:
 *   a plan of 100k resources then peaks near 220 MB instead of 260 MB, for a few more collections
 *   (docs/decisions/0023-perf-plan-process.md). Read by V8 at every collection.
 * - WebAssembly (undici's HTTP parser, llhttp) is compiled by the baseline compiler only, not again
 *   by the optimizing one in the background: a plan of the examples takes about a third less CPU
 *   (0.65 s to 0.42 s), and the 100k-resource plan no more (decision 46). Read by V8 when it
 *   compiles the parser, at the first request.
 * - TurboFan runs without escape analysis and loop peeling. A one-shot plan compiles about 250
 *   functions on Node.js 20 (no Maglev there), most of them to run for a second or less: those two
 *   passes cost the background threads more than they save the main thread. Request-heavy plan
 *   −2.5 %, 99,884-resource plan −3.5 % of CPU on Node.js 20; no difference measured on Node.js 24
 *   (decision 46, "TurboFan's lighter passes"). Read by V8 at every compile job. Neither changes
 *   what the code does: they are optimizations V8 may always skip.
 */
export const V8_FLAGS: readonly string[] = [
  '--heap-growing-percent=150',
  '--liftoff-only',
  '--no-turbo-escape',
  '--no-turbo-loop-peeling',
];

export function applyV8Settings(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
