import { createHash } from 'node:crypto';
import { FINGERPRINT, type Credentials } from '../model/credentials.js';
import { registerSecret } from './registry.js';

/**
 * Credentials a kind declares in its live answers (decision 0031): their values join the one
 * registry of secrets (src/secrets/registry.ts) the moment an answer holding them arrives, and an id
 * that is itself a credential is carried as its fingerprint.
 */

/** `sha256:` and the first 12 hex digits of the id's SHA-256: names an object, grants nothing. */
export function fingerprint(id: string): string {
  return `sha256:${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
}

export { FINGERPRINT };

function valueAt(item: unknown, path: string): unknown {
  let at: unknown = item;
  for (const step of path.split('.')) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}

/** Register every credential an answer item holds (its declared fields, and its id when declared). */
export function registerCredentials(item: unknown, credentials: Credentials | undefined): void {
  if (!credentials) return;
  const paths = [...(credentials.fields ?? []), ...(credentials.id ? ['id'] : [])];
  for (const path of paths) {
    const value = valueAt(item, path);
    if (typeof value === 'string') registerSecret(value);
  }
}

/** The item as the live model may hold it: registered, and its id replaced by its fingerprint when the id is a credential. */
export function withoutCredentials<T>(item: T, credentials: Credentials | undefined): T {
  registerCredentials(item, credentials);
  if (!credentials?.id || !item || typeof item !== 'object') return item;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' ? { ...item, id: fingerprint(id) } : item;
}
