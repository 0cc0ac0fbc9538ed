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

/** One rewritable status line on a TTY (stderr); silent otherwise. */
export function progressLine(): { update: (text: string) => void; done: () => void } {
  const tty = process.stderr.isTTY === true;
  let shown = false;
  return {
    update(text: string) {
      if (!tty) return;
      shown = true;
      process.stderr.write(`\r\x1b[2K${text}`);
    },
    done() {
      if (tty && shown) process.stderr.write('\r\x1b[2K');
    },
  };
}
