import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { registerSecret } from './registry.js';
import { DocsyncError } from '../errors.js';

/**
 * Indirect values (`{ file: PATH }`, `{ env: NAME }`) are confined: a file must lie inside the
 * config repository after resolving symlinks, be a regular file and stay within the field's size
 * limit; a variable must be named `DOCSYNC_SECRET_*`. Files are opened non-blocking and checked
 * on the open descriptor, so a FIFO or a device is refused without ever blocking. Every value read
 * is registered as a secret.
 */
export const SECRET_ENV_PREFIX = 'DOCSYNC_SECRET_';

export type IndirectErrorCode =
  'outside-root' | 'not-regular-file' | 'too-large' | 'read-failed' | 'env-not-allowed' | 'env-unset';

export class IndirectValueError extends DocsyncError<IndirectErrorCode> {
  constructor(code: IndirectErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export type IndirectSource = { file: string } | { env: string };

export type IndirectContext = {
  /** Relative file paths are resolved from here (the folder of the YAML file). */
  baseDir: string;
  /** Files must lie inside this folder after resolving symlinks (the config repository's root). */
  root: string;
  env: NodeJS.ProcessEnv;
  /** The field's limit, in characters. */
  maxChars: number;
};

export type IndirectValue = { value: string; path?: string };

/** The repository a folder belongs to: the nearest ancestor holding `.git`, else the folder itself. */
export function findRepositoryRoot(dir: string): string {
  const start = resolve(dir);
  for (let current = start; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return start;
  }
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

function isInside(real: string, root: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

function checkStats(written: string, info: Stats, maxBytes: number): void {
  if (!info.isFile()) throw new IndirectValueError('not-regular-file', `${written} is not a regular file`);
  if (info.size > maxBytes)
    throw new IndirectValueError(
      'too-large',
      `${written} is larger than the field allows (${info.size} bytes)`,
    );
}

function checkText(written: string, bytes: Buffer, maxChars: number): string {
  const text = bytes.toString('utf8');
  if (text.length > maxChars)
    throw new IndirectValueError('too-large', `${written} is longer than ${maxChars} characters`);
  return text;
}

function confinementError(written: string, root: string): IndirectValueError {
  return new IndirectValueError(
    'outside-root',
    `${written} is outside the config repository (${root}); indirect files must lie inside it`,
  );
}

function checkEnv(name: string, ctx: IndirectContext): string {
  if (!name.startsWith(SECRET_ENV_PREFIX) || name.length === SECRET_ENV_PREFIX.length)
    throw new IndirectValueError(
      'env-not-allowed',
      `variable ${name} may not be read: indirect values read only variables named ${SECRET_ENV_PREFIX}*`,
    );
  const value = ctx.env[name];
  if (value === undefined || value.trim() === '')
    throw new IndirectValueError('env-unset', `environment variable ${name} is not set`);
  if (value.length > ctx.maxChars)
    throw new IndirectValueError('too-large', `${name} is longer than ${ctx.maxChars} characters`);
  registerSecret(value);
  return value;
}

/** Read an indirect value without blocking the event loop. Throws `IndirectValueError`. */
export async function readIndirect(source: IndirectSource, ctx: IndirectContext): Promise<IndirectValue> {
  if ('env' in source) return { value: checkEnv(source.env, ctx) };
  const written = source.file;
  const maxBytes = ctx.maxChars * 4;
  let root: string;
  let real: string;
  try {
    root = await realpath(ctx.root);
    real = await realpath(resolve(ctx.baseDir, written));
  } catch (error) {
    throw new IndirectValueError('read-failed', `cannot read ${written}: ${errnoOf(error)}`, {
      cause: error,
    });
  }
  if (!isInside(real, root)) throw confinementError(written, root);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    checkStats(written, await stat(real), maxBytes);
    handle = await open(real, OPEN_FLAGS);
    checkStats(written, await handle.stat(), maxBytes);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length >= buffer.length) break;
    }
    if (length > maxBytes)
      throw new IndirectValueError('too-large', `${written} grew past the field's limit`);
    const value = checkText(written, buffer.subarray(0, length), ctx.maxChars);
    registerSecret(value);
    return { value, path: real };
  } catch (error) {
    if (error instanceof IndirectValueError) throw error;
    throw new IndirectValueError('read-failed', `cannot read ${written}: ${errnoOf(error)}`, {
      cause: error,
    });
  } finally {
    await handle?.close();
  }
}

/** The same checks, synchronously (loading config from buffers in tests and tools). */
export function readIndirectSync(source: IndirectSource, ctx: IndirectContext): IndirectValue {
  if ('env' in source) return { value: checkEnv(source.env, ctx) };
  const written = source.file;
  const maxBytes = ctx.maxChars * 4;
  let root: string;
  let real: string;
  try {
    root = realpathSync(ctx.root);
    real = realpathSync(resolve(ctx.baseDir, written));
  } catch (error) {
    throw new IndirectValueError('read-failed', `cannot read ${written}: ${errnoOf(error)}`, {
      cause: error,
    });
  }
  if (!isInside(real, root)) throw confinementError(written, root);
  let fd: number | undefined;
  try {
    checkStats(written, statSync(real), maxBytes);
    fd = openSync(real, OPEN_FLAGS);
    checkStats(written, fstatSync(fd), maxBytes);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length >= buffer.length) break;
    }
    if (length > maxBytes)
      throw new IndirectValueError('too-large', `${written} grew past the field's limit`);
    const value = checkText(written, buffer.subarray(0, length), ctx.maxChars);
    registerSecret(value);
    return { value, path: real };
  } catch (error) {
    if (error instanceof IndirectValueError) throw error;
    throw new IndirectValueError('read-failed', `cannot read ${written}: ${errnoOf(error)}`, {
      cause: error,
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
