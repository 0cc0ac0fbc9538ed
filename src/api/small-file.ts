import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Opened non-blocking, so a FIFO or a device never blocks the open or a read; symlinks are followed
 * (Kubernetes mounts secrets through them) and what they lead to is checked on the descriptor.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Why a small file could not be read; the message never holds any of its content. */
export class SmallFileError extends Error {}

/**
 * Read an operator-given file that must be small (a token, a certificate, a key): a regular file
 * of at most `maxBytes`, checked with fstat on the open descriptor before anything is read (so a
 * FIFO, `/dev/zero` or a directory is refused without blocking), then read with a bound (a file
 * that grows while read is refused too). Throws `SmallFileError` with a short reason.
 */
export function readSmallFileSync(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw new SmallFileError(`cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new SmallFileError('is not a regular file');
    if (info.size > maxBytes)
      throw new SmallFileError(`is larger than ${maxBytes} bytes (${info.size} bytes)`);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      } catch (error) {
        throw new SmallFileError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length >= buffer.length) break;
    }
    if (length > maxBytes) throw new SmallFileError(`grew past ${maxBytes} bytes while read`);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
