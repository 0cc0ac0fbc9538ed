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
  let path = basePath + req.path;
  let sep = '?';
  const query = req.query;
  if (query)
    for (const k in query) {
      const v = query[k];
      if (v === undefined) continue;
      path += sep + uriComponent(k) + '=' + uriComponent(String(v));
      sep = '&';
    }
  return path;
}

/**
 * `encodeURIComponent(text)`, which leaves a text of letters, digits and `-_.!~*'()` as it is: such
 * a text (every `limit` and `page` of a plan's 4,333 requests) is checked and kept, not encoded
 * into a new string by a call into the runtime.
 */
export function uriComponent(text: string): string {
  // A value that breaks its declared type (null, an object) is encoded as before, not read as a text.
  if (typeof text !== 'string') return encodeURIComponent(text);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 128 || UNRESERVED[code] === 0) return encodeURIComponent(text);
  }
  return text;
}

/** By ASCII code: the characters `encodeURIComponent` leaves as they are (1), the others (0). */
const UNRESERVED = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
  UNRESERVED[c.charCodeAt(0)] = 1;
