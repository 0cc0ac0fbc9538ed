import { readFileSync } from 'node:fs';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

/** Error when no usable token is configured. The message names the variables, never a value. */
export class TokenError extends DocsyncError<'token-missing'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('token-missing', message, options);
  }
}

/** The API token from `DOCSYNC_TOKEN`, or the file named by `DOCSYNC_TOKEN_FILE`. Never a flag. */
export function readToken(env: NodeJS.ProcessEnv = process.env): string {
  const direct = env['DOCSYNC_TOKEN']?.trim();
  if (direct) return direct;
  const file = env['DOCSYNC_TOKEN_FILE'];
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new TokenError(
        `cannot read DOCSYNC_TOKEN_FILE (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const token = text.trim();
    if (!token) throw new TokenError('DOCSYNC_TOKEN_FILE is empty');
    return token;
  }
  throw new TokenError('no API token: set DOCSYNC_TOKEN or DOCSYNC_TOKEN_FILE');
}
