import { ApiClient } from '../api/client.js';
import type { HttpObserver } from '../api/http-options.js';
import { readToken } from '../api/token.js';
import { createLogger, registerSecret, type Logger } from '../log/logger.js';
import { DEFAULT_MAX_CONCURRENCY, type CommonOptions } from './defaults.js';

export {
  commonDefaults,
  DEFAULT_MAX_CONCURRENCY,
  defaultStateDir,
  env,
  flavorOptions,
  sourceStateDir,
  type CommonOptions,
} from './defaults.js';

/**
 * The command's logger. With the command's name, its first line states the API flavor the command
 * speaks and where that came from.
 */
export function makeLogger(
  opts: Pick<CommonOptions, 'logLevel'> & Partial<CommonOptions>,
  command?: string,
  /** Where the log goes (default: stderr). */
  to?: NodeJS.WritableStream,
): Logger {
  const logger = createLogger(opts.logLevel, to);
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
    maxConcurrency: opts.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    timeoutMs: opts.timeout * 1000,
    ...(opts.maxResponseBytes ? { maxResponseBytes: opts.maxResponseBytes } : {}),
    flavor: opts.apiFlavor,
    ...(observer ? { observer } : {}),
    ...(userAgent ? { userAgent } : {}),
  });
}
