import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

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

/**
 * Opened non-blocking, so a FIFO or a device never blocks the open or a read; symlinks are followed
 * (Kubernetes mounts secrets through them) and what they lead to is checked on the descriptor.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const fileError = (message: string) =>
  new TokenError(`DOCSYNC_TOKEN_FILE ${message}`, { code: 'token-file' });

/**
 * Read the token file: a regular file of at most `MAX_TOKEN_FILE_BYTES`, checked on the open
 * descriptor (so a FIFO, `/dev/zero` or a directory is refused without blocking or reading), and
 * read with a bound (a file that grows while read is refused too).
 */
function readTokenFile(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw fileError(`cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw fileError('is not a regular file');
    if (info.size > MAX_TOKEN_FILE_BYTES)
      throw fileError(`is larger than ${MAX_TOKEN_FILE_BYTES} bytes (${info.size} bytes)`);
    const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      } catch (error) {
        throw fileError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length >= buffer.length) break;
    }
    if (length > MAX_TOKEN_FILE_BYTES) throw fileError(`grew past ${MAX_TOKEN_FILE_BYTES} bytes while read`);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
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
