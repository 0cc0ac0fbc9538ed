import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ApiClient } from '../api/client.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../api/http.js';
import type { ApiFlavor } from '../model/kinds.js';
import type { HttpObserver } from '../api/http.js';
import { flavorForUrl, resolveFlavor, type FlavorSource } from '../api/flavor.js';
import { readToken } from '../api/token.js';
import { DocsyncError } from '../errors.js';
import { createLogger, registerSecret, type Logger } from '../log/logger.js';
import { httpUrl, wholeNumber } from './settings.js';

/** Options every network command shares; flags win over environment variables. */
export type CommonOptions = {
  config: string;
  apiUrl: string;
  logLevel: string;
  concurrency: number;
  timeout: number;
  /** The largest API answer accepted, in bytes. */
  maxResponseBytes?: number;
  stateDir: string;
  apiFlavor: ApiFlavor;
  /** Where `apiFlavor` came from (the first log line of every command states both). */
  apiFlavorFrom?: FlavorSource;
};

export const DEFAULT_API_URL = 'https://api.gitbook.com';

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

/** The shared settings from the environment alone (the demo, which takes no such flags). */
export function commonDefaults(): CommonOptions {
  const apiUrl = fromEnv('DOCSYNC_API_URL', httpUrl, DEFAULT_API_URL);
  return {
    config: env('DOCSYNC_CONFIG') ?? './config',
    apiUrl,
    logLevel: env('DOCSYNC_LOG_LEVEL') ?? 'info',
    concurrency: fromEnv('DOCSYNC_CONCURRENCY', wholeNumber(1), 4),
    timeout: fromEnv('DOCSYNC_TIMEOUT', wholeNumber(1), 30),
    maxResponseBytes: fromEnv('DOCSYNC_MAX_RESPONSE_BYTES', wholeNumber(1024), DEFAULT_MAX_RESPONSE_BYTES),
    stateDir: env('DOCSYNC_STATE_DIR') ?? defaultStateDir(),
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

/**
 * The command's logger. With the command's name, its first line states the API flavor the command
 * speaks and where that came from.
 */
export function makeLogger(
  opts: Pick<CommonOptions, 'logLevel'> & Partial<CommonOptions>,
  command?: string,
): Logger {
  const logger = createLogger(opts.logLevel);
  if (command && opts.apiFlavor)
    logger.info(
      {
        command,
        apiUrl: opts.apiUrl,
        apiFlavor: opts.apiFlavor,
        apiFlavorFrom: opts.apiFlavorFrom ?? 'flag',
      },
      'api flavor',
    );
  return logger;
}

/** The API client, with the token from the environment registered as a secret first. */
export function makeApi(opts: CommonOptions, observer?: HttpObserver, userAgent?: string): ApiClient {
  const token = readToken();
  registerSecret(token);
  return new ApiClient({
    apiUrl: opts.apiUrl,
    token,
    concurrency: opts.concurrency,
    timeoutMs: opts.timeout * 1000,
    ...(opts.maxResponseBytes ? { maxResponseBytes: opts.maxResponseBytes } : {}),
    flavor: opts.apiFlavor,
    ...(observer ? { observer } : {}),
    ...(userAgent ? { userAgent } : {}),
  });
}
