import { redact } from '../secrets/registry.js';

/** Human output: stdout, secrets redacted. The only place (with stderr below) that writes to the terminal. */
export function out(text: string): void {
  process.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
}

export function err(text: string): void {
  process.stderr.write(redact(text.endsWith('\n') ? text : `${text}\n`));
}

/** `out` and `err` writing to the given streams (a command run inside another program writes where it says). */
export function outputTo(
  stdout?: NodeJS.WritableStream,
  stderr?: NodeJS.WritableStream,
): { out: (text: string) => void; err: (text: string) => void } {
  const line = (text: string) => redact(text.endsWith('\n') ? text : `${text}\n`);
  return {
    out: stdout ? (text) => void stdout.write(line(text)) : out,
    err: stderr ? (text) => void stderr.write(line(text)) : err,
  };
}

export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && !('NO_COLOR' in process.env) && process.env['TERM'] !== 'dumb';
}

/** How often a progress line is redrawn at most (a plan reports each list read: 8,666 on a large organization). */
export const PROGRESS_REDRAW_MS = 50;

/**
 * One rewritable status line on a TTY (stderr); silent otherwise. `update` takes the text or a
 * function that makes it: without a TTY, or between redraws, nothing is made nor written.
 */
export function progressLine(
  stream: Pick<NodeJS.WriteStream, 'isTTY' | 'write'> = process.stderr,
  now: () => number = Date.now,
): { update: (text: string | (() => string)) => void; done: () => void } {
  const tty = stream.isTTY === true;
  let shown = false;
  let drawnAt = Number.NEGATIVE_INFINITY;
  return {
    update(text) {
      if (!tty) return;
      const t = now();
      if (t - drawnAt < PROGRESS_REDRAW_MS) return;
      drawnAt = t;
      shown = true;
      stream.write(`\r\x1b[2K${typeof text === 'function' ? text() : text}`);
    },
    done() {
      if (tty && shown) stream.write('\r\x1b[2K');
    },
  };
}
