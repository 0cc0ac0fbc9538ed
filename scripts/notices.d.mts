import type { Metafile } from 'esbuild';

/** The file a bundle's notices are written to, beside it. */
export declare const NOTICES_FILE: string;
/** The package folders a metafile's inputs come from (from the build's working directory), by place. */
export declare function bundledPackages(metafile: Metafile): string[];
/** A package folder's place among the others: the packages on its path alone (`node_modules/a`). */
export declare function packagePlace(folder: string): string;
/** The notices text of a bundle: each bundled package's name, version, licence and licence files. */
export declare function thirdPartyNotices(root: string, metafile: Metafile): string;
