import type { ApiCapabilities } from '../model/capabilities.js';
import type { DesiredState } from '../reconcile/index.js';
import type { Inherited } from './extends.js';
import type { ConfigFileCache } from './file-cache.js';
import type { ConfigIssue } from './issues.js';
import type { ParsedConfig } from './semantic.js';

/** What the config load takes and gives, shared by its parts (load.ts re-exports them). */

export type LoadResult = {
  desired: DesiredState | null;
  issues: ConfigIssue[];
  files: string[];
  /**
   * The certificates' contents as this load read them, by hash (only hashes enter the desired
   * state): an apply of a plan made from this load sends them without reading the files again.
   */
  certificates?: ReadonlyMap<string, string>;
  /** Entries that came from base files (`extends`), and the ones a file replaced. */
  inherited?: Inherited[];
};

export type LoadOptions = {
  env?: NodeJS.ProcessEnv;
  /** Indirect files must lie inside this folder; default: the repository holding each YAML file. */
  root?: string;
  /** Reuse files parsed by earlier loads when their content is unchanged (the daemon). */
  cache?: ConfigFileCache;
  /** Told the real path of every indirect file read (the folder scan's other files are those). */
  onIndirectFile?: (real: string) => void;
  /** The API the config is checked for: a kind it does not have is an error (`validate`). */
  capabilities?: ApiCapabilities;
};

export type Parsed = ParsedConfig & { path?: string | undefined };
