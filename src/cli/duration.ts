import { DocsyncError } from '../errors.js';

/** `500ms`, `60s`, `5m`, `1h`, or a plain number of seconds, in milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m)
    throw new DocsyncError('invalid-option', `invalid duration "${text}" (use e.g. 500ms, 60s, 5m, 1h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!);
}
