/**
 * The API client's default bounds, in a module of their own: the CLI's flag definitions read them
 * without loading the HTTP client (undici, the queues) for `--help` or `--version`.
 */

/** Generous: the largest list page of the real service is far below this. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
