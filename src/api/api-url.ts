import type { HttpRequest } from './request.js';

/**
 * The API's `/v1` URL from `--api-url`: with or without a trailing `/v1` and trailing slashes
 * (the emulator prints its address as `…/v1`).
 */
export function apiBase(apiUrl: string): string {
  const bare = apiUrl.replace(/\/+$/, '');
  return /\/v1$/i.test(bare) ? bare.replace(/\/v1$/i, '/v1') : `${bare}/v1`;
}

/** `host:port` of an origin, the port spelled out even when it is the scheme's default. */
export function hostAndPort(origin: string): string {
  const url = new URL(origin);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The request's path on the server, with its query (undefined values left out). */
export function pathOf(basePath: string, req: HttpRequest): string {
  let path = `${basePath}${req.path}`;
  let sep = '?';
  if (req.query)
    for (const k in req.query) {
      const v = req.query[k];
      if (v === undefined) continue;
      path += `${sep}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
      sep = '&';
    }
  return path;
}
