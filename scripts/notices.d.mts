import type { Metafile } from 'esbuild';

/** The file a bundle's notices are written to, beside it. */
export declare const NOTICES_FILE: string;
/** The package folders (relative to the root) a metafile's inputs come from, sorted. */
export declare function bundledPackages(metafile: Metafile): string[];
/** The notices text of a bundle: each bundled package's name, version, licence and licence files. */
export declare function thirdPartyNotices(root: string, metafile: Metafile): string;
