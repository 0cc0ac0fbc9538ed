import pino, { type DestinationStream, type Logger } from 'pino';
import { redact } from '../secrets/registry.js';

export type { Logger };
/** The secret registry lives in src/secrets; re-exported for the modules that log. */
export { redact, registerSecret } from '../secrets/registry.js';

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** A human line for terminals: `level message key=value ...`. */
function pretty(line: string): string {
  try {
    const {
      level,
      time,
      msg,
      pid: _pid,
      hostname: _host,
      ...rest
    } = JSON.parse(line) as Record<string, unknown>;
    const fields = Object.entries(rest)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    const when = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
    return `${when} ${(LEVELS[level as number] ?? String(level)).padEnd(5)} ${String(msg ?? '')}${fields ? `  ${fields}` : ''}\n`;
  } catch {
    return line;
  }
}

/** A destination that redacts secrets from every line before it is written. */
export function redactingDestination(
  out: NodeJS.WritableStream & { isTTY?: boolean },
  human = out.isTTY === true,
): DestinationStream {
  return {
    write(line: string) {
      const clean = redact(line);
      out.write(human ? pretty(clean) : clean);
    },
  };
}

/** The process logger: JSON to stderr (human lines on a TTY), secrets redacted. */
export function createLogger(
  level = 'info',
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
): Logger {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.epochTime },
    redactingDestination(out),
  );
}
