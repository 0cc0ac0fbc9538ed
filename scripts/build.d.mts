import type { BuildResult } from 'esbuild';

export declare const DIST: string;
export declare function buildCli(options?: { outdir?: string; commit?: string }): Promise<BuildResult>;
