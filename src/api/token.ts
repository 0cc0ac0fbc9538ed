import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';
import { BoundedFileError, readBoundedFileSync } from '../secrets/bounded-file.js';

export type TokenErrorCode = 'token-missing' | 'token-file';

/**
 * Error when no usable token is configured (`token-missing`), or when `DOCSYNC_TOKEN_FILE` cannot
 * be used (`token-file`). The message names the variable, never a value or the file's content.
 */
export class TokenError extends DocsyncError<TokenErrorCode> {
  constructor(message: string, options?: DocsyncErrorOptions & { code?: TokenErrorCode }) {
    super(options?.code ?? 'token-missing', message, options);
  }
}

/** The most `DOCSYNC_TOKEN_FILE` may hold: a token is a few hundred bytes. */
export const MAX_TOKEN_FILE_BYTES = 16 * 1024;

const fileError = (message: string) =>
  new TokenError(`DOCSYNC_TOKEN_FILE ${message}`, { code: 'token-file' });

/** The token file: a regular file of at most `MAX_TOKEN_FILE_BYTES`, read without blocking. */
function readTokenFile(file: string): string {
  try {
    return readBoundedFileSync(file, MAX_TOKEN_FILE_BYTES).toString('utf8');
  } catch (error) {
    if (error instanceof BoundedFileError) throw fileError(error.message);
    throw error;
  }
}

/** The API token from `DOCSYNC_TOKEN`, or the file named by `DOCSYNC_TOKEN_FILE`. Never a flag. */
export function readToken(env: NodeJS.ProcessEnv = process.env): string {
  const direct = env['DOCSYNC_TOKEN']?.trim();
  if (direct) return direct;
  const file = env['DOCSYNC_TOKEN_FILE'];
  if (file) {
    const token = readTokenFile(file).trim();
    if (!token) throw fileError('is empty');
    return token;
  }
  throw new TokenError('no API token: set DOCSYNC_TOKEN or DOCSYNC_TOKEN_FILE');
}
