import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reading a file that must be small (a token, a certificate, a config file): opened non-blocking,
 * so a FIFO or a device never blocks the open or a read; checked with fstat on the open
 * descriptor before anything is read (a FIFO, `/dev/zero` or a directory is refused at once, a
 * file over the bound by its size alone); then read with the bound (a file that grows while read
 * is refused too). Symlinks are followed unless `noFollow` (Kubernetes mounts secrets through
 * them; config authors' indirect values never go through one). The one reader of such files.
 */
export type BoundedFileOptions = { noFollow?: boolean };

/** Why a bounded file could not be read; the message never holds any of its content. */
export class BoundedFileError extends Error {
  constructor(
    /** `too-large`: by its size; `grew`: past the bound while read; `open`/`read`: errno in `cause`. */
    readonly reason: 'open' | 'not-regular-file' | 'too-large' | 'grew' | 'read',
    message: string,
    /** The size the file had, for `too-large`. */
    readonly size?: number,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

const flags = (o: BoundedFileOptions) =>
  constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (o.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

function failed(reason: 'open' | 'read', error: unknown): BoundedFileError {
  const what = reason === 'open' ? 'cannot be opened' : 'cannot be read';
  return new BoundedFileError(reason, `${what} (${errno(error)})`, undefined, { cause: error });
}

function checkStats(info: Stats, maxBytes: number): void {
  if (!info.isFile()) throw new BoundedFileError('not-regular-file', 'is not a regular file');
  if (info.size > maxBytes)
    throw new BoundedFileError(
      'too-large',
      `is larger than ${maxBytes} bytes (${info.size} bytes)`,
      info.size,
    );
}

/** A buffer for the file: its size plus one byte (to see it grow), never past the bound plus one. */
const bufferFor = (info: Stats, maxBytes: number) => Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);

/** The buffer grown when the file outgrew its stat size while still within the bound. */
function grown(buffer: Buffer, length: number, maxBytes: number): Buffer {
  if (length < buffer.length) return buffer;
  if (length > maxBytes) throw new BoundedFileError('grew', `grew past ${maxBytes} bytes while read`);
  const next = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
  buffer.copy(next, 0, 0, length);
  return next;
}

export function readBoundedFileSync(file: string, maxBytes: number, o: BoundedFileOptions = {}): Buffer {
  let fd: number;
  try {
    fd = openSync(file, flags(o));
  } catch (error) {
    throw failed('open', error);
  }
  try {
    const info = fstatSync(fd);
    checkStats(info, maxBytes);
    let buffer: Buffer = bufferFor(info, maxBytes);
    let length = 0;
    for (;;) {
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      } catch (error) {
        throw failed('read', error);
      }
      if (bytesRead === 0) break;
      length += bytesRead;
      buffer = grown(buffer, length, maxBytes);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

export async function readBoundedFile(
  file: string,
  maxBytes: number,
  o: BoundedFileOptions = {},
): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, flags(o));
  } catch (error) {
    throw failed('open', error);
  }
  try {
    const info = await handle.stat();
    checkStats(info, maxBytes);
    let buffer: Buffer = bufferFor(info, maxBytes);
    let length = 0;
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, length, buffer.length - length, length));
      } catch (error) {
        throw failed('read', error);
      }
      if (bytesRead === 0) break;
      length += bytesRead;
      buffer = grown(buffer, length, maxBytes);
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
