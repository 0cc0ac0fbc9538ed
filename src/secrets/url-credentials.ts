import { registerSecret } from './registry.js';

/**
 * Registers the credentials a repository URL carries: the password, and the user name too, which
 * is the token itself in `https://TOKEN@host/repo.git` (no password). Both as written and
 * percent-decoded, since git and its errors may show either. scp-like URLs carry none.
 */
export function registerUrlCredentials(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  for (const raw of [parsed.username, parsed.password]) {
    if (!raw) continue;
    registerSecret(raw);
    registerSecret(safeDecode(raw));
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
