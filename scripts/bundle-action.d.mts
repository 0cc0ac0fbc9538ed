import type { BuildOptions } from 'esbuild';

/** dist-action/index.js in this repository. */
export const BUNDLE: string;
/** The commit a bundle names on its first line (undefined: none or unknown). */
export function bundleCommit(text: string): string | undefined;
/** esbuild's options for the action bundle (what bundleAction builds). */
export function actionBuildOptions(options?: { outfile?: string; commit?: string | undefined }): BuildOptions;
/** Build the action bundle; returns the file written. */
export function bundleAction(options?: { outfile?: string; commit?: string | undefined }): Promise<string>;
/**
 * Whether a bundle (default: dist-action/index.js) equals a fresh build from the commit it names;
 * `fresh`: such a build's index.js made already (its notices beside it), else one is built.
 */
export function checkBundle(
  file?: string,
  options?: { fresh?: string },
): Promise<{ same: boolean; commit: string | undefined }>;
