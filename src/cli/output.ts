import { redact } from '../log/logger.js';

/** Human output: stdout, secrets redacted. The only place (with stderr below) that writes to the terminal. */
export function out(text: string): void {
  process.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
}

export function err(text: string): void {
  process.stderr.write(redact(text.endsWith('\n') ? text : `${text}\n`));
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
