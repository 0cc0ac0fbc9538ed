import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';
import { readIndirect } from '../secrets/indirect.js';
import { registerSecret } from '../secrets/registry.js';

/**
 * Who may read the status page, `/status` and `/api/*`: a bearer token or basic-auth credentials
 * from a file (`--ui-auth-file`, `DOCSYNC_UI_AUTH_FILE`). Bound beyond loopback without the file,
 * those paths are disabled; `/healthz`, `/readyz` and `/metrics` stay open; the webhook has its
 * own HMAC secret.
 */
export type UiAuth = { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string };

export class UiAuthError extends DocsyncError<'ui-auth'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('ui-auth', message, options);
  }
}

/** What the file holds, parsed: one line, `user:password` (basic auth) or a token (bearer). */
export function parseUiAuth(text: string, file: string): UiAuth {
  const line = text.trim();
  if (!line)
    throw new UiAuthError(`the UI auth file ${file} is empty (--ui-auth-file, DOCSYNC_UI_AUTH_FILE)`);
  if (/[\r\n]/.test(line))
    throw new UiAuthError(`the UI auth file ${file} must hold one line: a token, or user:password`);
  const colon = line.indexOf(':');
  if (colon < 0) {
    registerSecret(line);
    return { kind: 'bearer', token: line };
  }
  const user = line.slice(0, colon);
  const password = line.slice(colon + 1);
  if (!user || !password)
    throw new UiAuthError(`the UI auth file ${file} holds "user:password" with an empty user or password`);
  registerSecret(password);
  return { kind: 'basic', user, password };
}

/** Read the file: a regular file of at most 4096 characters, read without blocking. */
export async function readUiAuth(file: string): Promise<UiAuth> {
  let text: string;
  try {
    const read = await readIndirect(
      { file },
      { baseDir: process.cwd(), root: '/', env: {}, maxChars: 4096, operatorPath: true },
    );
    text = read.value;
  } catch (error) {
    throw new UiAuthError(`cannot read the UI auth file (--ui-auth-file): ${(error as Error).message}`);
  }
  return parseUiAuth(text, file);
}

/** Equal in constant time (hashes first, so lengths leak nothing either). */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Whether a request carries the credentials (`Authorization: Bearer …` or `Basic …`). */
export function authorized(req: IncomingMessage, auth: UiAuth): boolean {
  const header = req.headers.authorization ?? '';
  const space = header.indexOf(' ');
  const scheme = header.slice(0, Math.max(space, 0)).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (auth.kind === 'bearer') return scheme === 'bearer' && same(value, auth.token);
  if (scheme !== 'basic') return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Both compared, always: no early exit on a wrong user.
  const userOk = same(decoded.slice(0, colon), auth.user);
  const passwordOk = same(decoded.slice(colon + 1), auth.password);
  return userOk && passwordOk;
}

/** A listen address that only this host can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (h.startsWith('::ffff:')) return isLoopback(h.slice('::ffff:'.length));
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Whether a request's `Host` header names this host's loopback (`127.x`, `localhost`, `[::1]`, with
 * or without a port). A page on another site can make its own name resolve to 127.0.0.1 (DNS
 * rebinding); its requests still carry that name as `Host`, so they are told apart by it.
 */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (!header) return false;
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!m) return false;
  return isLoopback(m[1] ?? m[2] ?? '');
}
