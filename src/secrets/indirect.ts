import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BoundedFileError, readBoundedFile, readBoundedFileSync } from './bounded-file.js';
import { registerSecret } from './registry.js';
import { DocsyncError } from '../errors.js';

/**
 * Indirect values (`{ file: PATH }`, `{ env: NAME }`) are confined: a file must lie inside the
 * config repository, be reached without any symlink (its real path is the path written, resolved),
 * lie outside every VCS metadata folder (`.git`, `.hg`, `.svn`…: a repository's credentials, hooks
 * and refs are never content), be a regular file and stay within the field's size limit; a
 * variable must be named `DOCSYNC_SECRET_*`. Files are opened non-blocking and checked on the open
 * descriptor, so a FIFO or a device is refused without ever blocking. The content must then pass
 * the value's own check (a certificate must parse as one). Every value read is registered as a
 * secret, unless the field says it is a document (`secret: false`: an OpenAPI spec's text, which
 * plans carry and show by hash). A path an operator gives (a flag or variable, not the config) may follow symlinks
 * (Kubernetes mounts secrets through them): `operatorPath`.
 */
export const SECRET_ENV_PREFIX = 'DOCSYNC_SECRET_';

export type IndirectErrorCode =
  | 'outside-root'
  | 'vcs-metadata'
  | 'symlink'
  | 'not-regular-file'
  | 'too-large'
  | 'read-failed'
  | 'invalid-content'
  | 'env-not-allowed'
  | 'env-unset';

export class IndirectValueError extends DocsyncError<IndirectErrorCode> {
  constructor(code: IndirectErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export type IndirectSource = { file: string } | { env: string };

/**
 * What an indirect value must hold: undefined when the content is acceptable, else why not (a
 * message that never quotes the content).
 */
export type ContentCheck = (text: string) => string | undefined;

export type IndirectContext = {
  /** Relative file paths are resolved from here (the folder of the YAML file). */
  baseDir: string;
  /** Files must lie inside this folder (the config repository's root). */
  root: string;
  env: NodeJS.ProcessEnv;
  /** The field's limit, in characters. */
  maxChars: number;
  /** The value's content check (every value a config declares has one). */
  content?: ContentCheck;
  /** A path given by the operator, not by a config author: symlinks and VCS folders allowed. */
  operatorPath?: boolean;
  /**
   * false: the value is a document, not a secret (not registered with the redactor). The same
   * confinement applies. Default: a secret.
   */
  secret?: boolean;
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

/** Folders (or files: a worktree's `.git` is a file) holding version control metadata. */
const VCS_METADATA = new Set(['.git', '.hg', '.svn', '.bzr', '_darcs', '.jj', 'cvs', '.fossil']);

/** Whether a path component names VCS metadata (case-insensitively: macOS and Windows fold case). */
export function isVcsMetadata(name: string): boolean {
  return VCS_METADATA.has(name.toLowerCase().replace(/[. ]+$/, '') || name);
}

function isInside(real: string, root: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/** The bounded reader's refusal in the field's words (src/secrets/bounded-file.ts reads the file). */
function boundedFailure(written: string, error: unknown): Error {
  if (!(error instanceof BoundedFileError)) return readFailed(written, error);
  switch (error.reason) {
    case 'not-regular-file':
      return new IndirectValueError('not-regular-file', `${written} is not a regular file`);
    case 'too-large':
      return new IndirectValueError(
        'too-large',
        `${written} is larger than the field allows (${error.size} bytes)`,
      );
    case 'grew':
      return new IndirectValueError('too-large', `${written} grew past the field's limit`);
    default:
      return readFailed(written, error.cause);
  }
}

/** A file's text, once read: registered as a secret (unless a document), then checked. */
function textOf(written: string, bytes: Buffer, real: string, ctx: IndirectContext): IndirectValue {
  if (ctx.secret !== false) registerSecret(bytes.toString('utf8'));
  return { value: checkText(written, bytes, ctx), path: real };
}

function checkText(written: string, bytes: Buffer, ctx: IndirectContext): string {
  const text = bytes.toString('utf8');
  if (text.length > ctx.maxChars)
    throw new IndirectValueError('too-large', `${written} is longer than ${ctx.maxChars} characters`);
  checkContent(written, text, ctx);
  return text;
}

function checkContent(written: string, text: string, ctx: IndirectContext): void {
  const problem = ctx.content?.(text);
  if (problem) throw new IndirectValueError('invalid-content', `${written} ${problem}`);
}

function confinementError(written: string, root: string): IndirectValueError {
  return new IndirectValueError(
    'outside-root',
    `${written} is outside the config repository (${root}); indirect files must lie inside it`,
  );
}

function readFailed(written: string, error: unknown): IndirectValueError {
  return new IndirectValueError('read-failed', `cannot read ${written}: ${errnoOf(error)}`, {
    cause: error,
  });
}

/** Where a file's components are, below the root: lexically (before any symlink is looked at). */
type Placement = { rootReal: string; parts: string[]; expected: string };

/**
 * The path written, placed below the root without following anything: outside the root or into
 * VCS metadata is refused here, before the file system is asked about the target.
 */
function place(written: string, ctx: IndirectContext, rootReal: string): Placement {
  const full = resolve(ctx.baseDir, written);
  const candidates = [resolve(ctx.root), rootReal];
  const base = candidates.find((r) => isInside(full, r)) ?? rootAlias(full, rootReal);
  if (base === undefined) throw confinementError(written, rootReal);
  const parts = relative(base, full).split(sep);
  if (!ctx.operatorPath && parts.some(isVcsMetadata))
    throw new IndirectValueError(
      'vcs-metadata',
      `${written} lies in version control metadata (${parts.find(isVcsMetadata)}); indirect files may not be read from it`,
    );
  return { rootReal, parts, expected: join(rootReal, ...parts) };
}

/**
 * The ancestor of `full` that is the root under another name (the root reached through a link
 * above it, like macOS's `/tmp`), if any: only what lies below the root is checked for links.
 */
function rootAlias(full: string, rootReal: string): string | undefined {
  for (let dir = dirname(full); ; dir = dirname(dir)) {
    try {
      if (realpathSync(dir) === rootReal) return dir;
    } catch {
      // A folder that does not exist is no alias; keep climbing.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function symlinkError(written: string): IndirectValueError {
  return new IndirectValueError(
    'symlink',
    `${written} is reached through a symbolic link; indirect files must be regular files reached without links`,
  );
}

/** No component below the root may be a symlink, and the real path must be the one written. */
function checkNoLinks(
  written: string,
  placement: Placement,
  isLink: (path: string) => boolean,
  real: string,
): void {
  let current = placement.rootReal;
  for (const part of placement.parts) {
    current = join(current, part);
    if (isLink(current)) throw symlinkError(written);
  }
  if (real !== placement.expected) throw symlinkError(written);
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
  if (ctx.secret !== false) registerSecret(value);
  checkContent(name, value, ctx);
  return value;
}

/** Read an indirect value without blocking the event loop. Throws `IndirectValueError`. */
export async function readIndirect(source: IndirectSource, ctx: IndirectContext): Promise<IndirectValue> {
  if ('env' in source) return { value: checkEnv(source.env, ctx) };
  const written = source.file;
  const maxBytes = ctx.maxChars * 4;
  let root: string;
  try {
    root = await realpath(ctx.root);
  } catch (error) {
    throw readFailed(written, error);
  }
  const placement = place(written, ctx, root);
  let real: string;
  try {
    real = await realpath(resolve(ctx.baseDir, written));
  } catch (error) {
    throw readFailed(written, error);
  }
  if (!isInside(real, root)) throw confinementError(written, root);
  if (!ctx.operatorPath) {
    const links = new Set<string>();
    let current = placement.rootReal;
    for (const part of placement.parts) {
      current = join(current, part);
      try {
        if ((await lstat(current)).isSymbolicLink()) links.add(current);
      } catch (error) {
        throw readFailed(written, error);
      }
    }
    checkNoLinks(written, placement, (p) => links.has(p), real);
  }
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(real, maxBytes, { noFollow: true });
  } catch (error) {
    throw boundedFailure(written, error);
  }
  return textOf(written, bytes, real, ctx);
}

/** The same checks, synchronously (loading config from buffers in tests and tools). */
export function readIndirectSync(source: IndirectSource, ctx: IndirectContext): IndirectValue {
  if ('env' in source) return { value: checkEnv(source.env, ctx) };
  const written = source.file;
  const maxBytes = ctx.maxChars * 4;
  let root: string;
  try {
    root = realpathSync(ctx.root);
  } catch (error) {
    throw readFailed(written, error);
  }
  const placement = place(written, ctx, root);
  let real: string;
  try {
    real = realpathSync(resolve(ctx.baseDir, written));
  } catch (error) {
    throw readFailed(written, error);
  }
  if (!isInside(real, root)) throw confinementError(written, root);
  if (!ctx.operatorPath) {
    try {
      checkNoLinks(written, placement, (p) => lstatSync(p).isSymbolicLink(), real);
    } catch (error) {
      if (error instanceof IndirectValueError) throw error;
      throw readFailed(written, error);
    }
  }
  let bytes: Buffer;
  try {
    bytes = readBoundedFileSync(real, maxBytes, { noFollow: true });
  } catch (error) {
    throw boundedFailure(written, error);
  }
  return textOf(written, bytes, real, ctx);
}
