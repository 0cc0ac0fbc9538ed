import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../api/client.js';
import type { ApiFlavor } from '../model/kinds.js';
import type { HttpObserver } from '../api/http.js';
import { readToken } from '../api/token.js';
import { createLogger, registerSecret, type Logger } from '../log/logger.js';

/** Options every network command shares; flags win over environment variables. */
export type CommonOptions = {
  config: string;
  apiUrl: string;
  logLevel: string;
  concurrency: number;
  timeout: number;
  stateDir: string;
  apiFlavor: ApiFlavor;
};

export const DEFAULT_API_URL = 'https://api.gitbook.com';

export function env(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function commonDefaults(): CommonOptions {
  return {
    config: env('DOCSYNC_CONFIG') ?? './config',
    apiUrl: env('DOCSYNC_API_URL') ?? DEFAULT_API_URL,
    logLevel: env('DOCSYNC_LOG_LEVEL') ?? 'info',
    concurrency: Number(env('DOCSYNC_CONCURRENCY') ?? 4),
    timeout: Number(env('DOCSYNC_TIMEOUT') ?? 30),
    stateDir: env('DOCSYNC_STATE_DIR') ?? join(tmpdir(), 'docsync-state'),
    apiFlavor: env('DOCSYNC_API_FLAVOR') === 'current' ? 'current' : 'seed',
  };
}

export function makeLogger(opts: Pick<CommonOptions, 'logLevel'>): Logger {
  return createLogger(opts.logLevel);
}

/** The API client, with the token from the environment registered as a secret first. */
export function makeApi(opts: CommonOptions, observer?: HttpObserver): ApiClient {
  const token = readToken();
  registerSecret(token);
  return new ApiClient({
    apiUrl: opts.apiUrl,
    token,
    concurrency: opts.concurrency,
    timeoutMs: opts.timeout * 1000,
    flavor: opts.apiFlavor,
    ...(observer ? { observer } : {}),
  });
}
