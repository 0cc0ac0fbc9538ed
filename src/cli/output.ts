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

/** The clock and the timer a progress line redraws by (the test's own in its tests). */
export type RedrawClock = {
  /** A monotonic time in ms (a wall clock stepped back would stop the redraws). */
  now: () => number;
  /** Calls `fn` after `ms`, without keeping the process alive; returns what cancels it. */
  later: (fn: () => void, ms: number) => () => void;
};

const realClock: RedrawClock = {
  now: () => performance.now(),
  later: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * One rewritable status line on a TTY (stderr); silent otherwise. `update` takes the text or a
 * function that makes it. Without a TTY nothing is made nor written; on one, the line is redrawn
 * at most every `PROGRESS_REDRAW_MS`, and an update that comes sooner is drawn when the interval
 * ends (the line never stays on an older state than the last update).
 */
export function progressLine(
  stream: Pick<NodeJS.WriteStream, 'isTTY' | 'write'> = process.stderr,
  clock: RedrawClock = realClock,
): { update: (text: string | (() => string)) => void; done: () => void } {
  const tty = stream.isTTY === true;
  let shown = false;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let pending: string | (() => string) | undefined;
  let cancel: (() => void) | undefined;
  const draw = () => {
    cancel = undefined;
    if (pending === undefined) return;
    const text = pending;
    pending = undefined;
    drawnAt = clock.now();
    shown = true;
    stream.write(`\r\x1b[2K${typeof text === 'function' ? text() : text}`);
  };
  return {
    update(text) {
      if (!tty) return;
      pending = text;
      if (cancel) return; // drawn when the interval ends
      const wait = drawnAt + PROGRESS_REDRAW_MS - clock.now();
      if (wait <= 0) draw();
      else cancel = clock.later(draw, wait);
    },
    done() {
      cancel?.();
      cancel = undefined;
      pending = undefined;
      if (tty && shown) stream.write('\r\x1b[2K');
      shown = false; // a second done() (a caller's finally) writes nothing
    },
  };
}
