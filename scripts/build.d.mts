import type { BuildResult } from 'esbuild';

export declare const DIST: string;
export declare function buildCli(options?: { outdir?: string; commit?: string }): Promise<BuildResult>;
/** What a build was made from and the commit it embeds: `<outdir>/build-inputs.json`. */
export declare const BUILD_INPUTS_FILE: string;
/** A digest of everything `buildCli` reads (sources, scripts, config, seed, lockfile, esbuild, Node.js). */
export declare function buildInputsDigest(): string;
/** The warm-up's environment: `from` without DOCSYNC_* and NODE_OPTIONS. */
export declare function warmUpEnv(from?: Record<string, string | undefined>): Record<string, string>;
