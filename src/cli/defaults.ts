import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../api/limits.js';
import type { ApiFlavor } from '../model/kinds.js';
import { flavorForUrl, resolveFlavor, type FlavorSource } from '../api/flavor.js';
import { DocsyncError } from '../errors.js';
import { httpUrl, wholeNumber } from './settings.js';

// The shared settings of the commands, from flags and the environment: what the flag definitions
// and `docsync version` read, without the API client or the logger (src/cli/context.ts), so that
// neither loads for `--help` or `--version`.
/** Options every network command shares; flags win over environment variables. */
export type CommonOptions = {
  config: string;
  apiUrl: string;
  logLevel: string;
  concurrency: number;
  /** The most requests in flight: above `concurrency`, as the API's rate limit allows (decision 43). */
  maxConcurrency?: number;
  timeout: number;
  /** The largest API answer accepted, in bytes. */
  maxResponseBytes?: number;
  /** The state folder: `--state-dir`/`DOCSYNC_STATE_DIR`, else the per-user default. */
  stateDir: string;
  /** True when `--state-dir` or `DOCSYNC_STATE_DIR` named it: then everything lives there, as given. */
  stateDirGiven?: boolean;
  apiFlavor: ApiFlavor;
  /** Where `apiFlavor` came from (the first log line of every command states both). */
  apiFlavorFrom?: FlavorSource;
};

export const DEFAULT_API_URL = 'https://api.gitbook.com';

/**
 * The most API requests in flight by default: the client starts at `--concurrency` and grows only as
 * far as the API's rate-limit headers allow at the latency it sees (600 requests a second at 100 ms
 * is 75); this caps the sockets an API that announces a huge limit could make it open.
 */
export const DEFAULT_MAX_CONCURRENCY = 256;

export function env(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** Per user, never a shared temporary folder: `$XDG_STATE_HOME/docsync`, else `~/.local/state/docsync`. */
export function defaultStateDir(): string {
  const xdg = env('XDG_STATE_HOME');
  return xdg && isAbsolute(xdg) ? join(xdg, 'docsync') : join(homedir(), '.local', 'state', 'docsync');
}

/** How `--help` writes the default state folder. */
export const STATE_DIR_SHOWN = '$XDG_STATE_HOME/docsync, else ~/.local/state/docsync';

/** An environment variable through a flag's parser; a bad value names the variable (DocsyncError `invalid-env`). */
function fromEnv<T>(name: string, parse: (v: string) => T, fallback: T): T {
  const raw = env(name);
  if (raw === undefined) return fallback;
  try {
    return parse(raw);
  } catch (error) {
    throw new DocsyncError('invalid-env', `${name}='${raw}' is invalid: ${(error as Error).message}`);
  }
}

/** Where a daemon's config comes from: a git repository's branch and path, or a folder. */
export type SourceSpec = { repo: string; branch: string; path: string } | { config: string };

/**
 * The key of a source: a readable slug and a hash of the repository URL, branch and path, or of
 * the folder's real path (`docs-config-main-config-1f2e3d4c5b6a`). Two daemons share a key only
 * when they follow the same source.
 */
export function sourceKey(source: SourceSpec): string {
  let identity: string;
  let slug: string;
  if ('repo' in source) {
    const path = normalize(source.path).replace(/^\.\/?|\/+$/g, '') || '.';
    identity = `git\0${source.repo.replace(/\/+$/, '')}\0${source.branch}\0${path}`;
    const name = basename(
      source.repo
        .replace(/\/+$/, '')
        .replace(/\.git$/, '')
        .replace(/^.*:/, ''),
    );
    slug = [name, source.branch, path === '.' ? '' : path].filter(Boolean).join('-');
  } else {
    let real = resolve(source.config);
    try {
      real = realpathSync(real);
    } catch {
      // not there (yet): its absolute path
    }
    identity = `folder\0${real}`;
    slug = `${basename(dirname(real))}-${basename(real)}`;
  }
  const clean = slug
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 12);
  return clean ? `${clean}-${hash}` : hash;
}

/**
 * A daemon's own state folder (run history, git checkout, the daemon lock): `<state>/sources/<key>`
 * under the default state folder, so that two daemons of one user never share them unless they
 * follow the same source; the state folder itself when `--state-dir` named it.
 */
export function sourceStateDir(
  opts: Pick<CommonOptions, 'stateDir' | 'stateDirGiven'>,
  source: SourceSpec,
): string {
  return opts.stateDirGiven ? opts.stateDir : join(opts.stateDir, 'sources', sourceKey(source));
}

/** The shared settings from the environment alone (the demo, which takes no such flags). */
export function commonDefaults(): CommonOptions {
  const apiUrl = fromEnv('DOCSYNC_API_URL', httpUrl, DEFAULT_API_URL);
  return {
    config: env('DOCSYNC_CONFIG') ?? './config',
    apiUrl,
    logLevel: env('DOCSYNC_LOG_LEVEL') ?? 'info',
    concurrency: fromEnv('DOCSYNC_CONCURRENCY', wholeNumber(1), 4),
    maxConcurrency: fromEnv('DOCSYNC_MAX_CONCURRENCY', wholeNumber(1), DEFAULT_MAX_CONCURRENCY),
    timeout: fromEnv('DOCSYNC_TIMEOUT', wholeNumber(1), 30),
    maxResponseBytes: fromEnv('DOCSYNC_MAX_RESPONSE_BYTES', wholeNumber(1024), DEFAULT_MAX_RESPONSE_BYTES),
    stateDir: env('DOCSYNC_STATE_DIR') ?? defaultStateDir(),
    stateDirGiven: env('DOCSYNC_STATE_DIR') !== undefined,
    ...defaultFlavor(apiUrl),
  };
}

/** Defaults never fail (help and validate must work); a bad DOCSYNC_API_FLAVOR fails the network command. */
function defaultFlavor(apiUrl: string): Pick<CommonOptions, 'apiFlavor' | 'apiFlavorFrom'> {
  try {
    return flavorOptions(undefined, apiUrl);
  } catch {
    return { apiFlavor: flavorForUrl(apiUrl), apiFlavorFrom: 'api-url' };
  }
}

/** `apiFlavor` and `apiFlavorFrom`: the flag, else `DOCSYNC_API_FLAVOR`, else the API URL's. */
export function flavorOptions(
  flag: string | undefined,
  apiUrl: string,
): Pick<CommonOptions, 'apiFlavor' | 'apiFlavorFrom'> {
  const { flavor, from } = resolveFlavor(flag, env('DOCSYNC_API_FLAVOR'), apiUrl);
  return { apiFlavor: flavor, apiFlavorFrom: from };
}
