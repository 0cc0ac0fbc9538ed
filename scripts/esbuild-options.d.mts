import type { BuildOptions, Plugin } from 'esbuild';

/** The repository's root folder. */
export const ROOT: string;
/** esbuild plugin: src/'s createRequire(import.meta.url) calls as plain require() (which esbuild bundles). */
export const inlineCreateRequire: Plugin;
/** esbuild plugin: zod's `locales` namespace reduced to English (the one docsync uses). */
export const zodEnglishOnly: Plugin;
/** The banner line that gives an ES module bundle a `require` for CommonJS dependencies. */
export const REQUIRE_SHIM: string;
/** What every docsync bundle shares; `commit`: embedded as the build commit. */
export function bundleOptions(options?: { commit?: string | undefined }): BuildOptions;
/** The CLI: `<outdir>/cli.js`, commands initialized on use, minified, source-mapped. */
export function cliOptions(options?: {
  outdir?: string;
  commit?: string | undefined;
  entries?: { in: string; out: string }[];
}): BuildOptions;
/** The shipped CLI's program: `<outdir>/docsync.cjs` (CommonJS, for the code cache; decision 46). */
export function programOptions(options?: { outdir?: string; commit?: string | undefined }): BuildOptions;
/** The shipped CLI's launcher: `<outdir>/cli.js`, which runs docsync.cjs with its code cache. */
export function launcherOptions(options?: { outdir?: string }): BuildOptions;
/** esbuild plugin: commander's `child_process` required when it first spawns. */
export const commanderSpawnOnUse: Plugin;
/** `<outdir>/package.json` of the shipped CLI: its launcher, `cli.js`, is CommonJS. */
export const LAUNCHER_PACKAGE_JSON: string;
