import type { ApiFlavor } from '../model/kinds.js';
import { DocsyncError } from '../errors.js';

/** Where the flavor a command speaks came from: `--api-flavor`, `DOCSYNC_API_FLAVOR`, or the API URL. */
export type FlavorSource = 'flag' | 'env' | 'api-url';

export const apiFlavors: readonly ApiFlavor[] = ['seed', 'current'];

/** The real service (`api.gitbook.com`) speaks today's API; any other URL (an emulator) api.md's. */
export function flavorForUrl(apiUrl: string): ApiFlavor {
  let host: string;
  try {
    host = new URL(apiUrl).hostname.toLowerCase();
  } catch {
    return 'seed';
  }
  return host === 'api.gitbook.com' ? 'current' : 'seed';
}

/** Flag, then environment, then the target: `current` for api.gitbook.com, `seed` otherwise. */
export function resolveFlavor(
  flag: string | undefined,
  envValue: string | undefined,
  apiUrl: string,
): { flavor: ApiFlavor; from: FlavorSource } {
  if (flag !== undefined) return { flavor: parseFlavor(flag, '--api-flavor'), from: 'flag' };
  if (envValue !== undefined) return { flavor: parseFlavor(envValue, 'DOCSYNC_API_FLAVOR'), from: 'env' };
  return { flavor: flavorForUrl(apiUrl), from: 'api-url' };
}

function parseFlavor(value: string, where: string): ApiFlavor {
  if ((apiFlavors as readonly string[]).includes(value)) return value as ApiFlavor;
  throw new DocsyncError('invalid-option', `${where} must be seed or current, got "${value}"`);
}
