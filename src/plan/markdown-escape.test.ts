import { describe, expect, it } from 'vitest';
import { declareNotSecret, redact, registerSecret } from '../secrets/registry.js';
import { oneLine } from './markdown-escape.js';

/** `oneLine` as first written: every replacement on every string (the fast path must agree). */
const reference = (value: string): string =>
  redact(value)
    .replace(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/g, ' \u21b5 ')
    .replace(/\t/g, ' ')
    .replace(
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
      (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`,
    );

/** A seeded generator (the same strings on every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const PIECES = [
  'Site 1',
  ' ',
  '~',
  '\t',
  '\n',
  '\r\n',
  '\u0085',
  '\u202e',
  '\u00e9',
  '\u{1f600}',
  '\u007f',
  'https://x.test/?token=abcdef',
  'Bearer abcdefghijkl',
  'oneline-secret-value',
];

describe('oneLine', () => {
  it('answers what every replacement would, on printable ASCII and on everything else', () => {
    registerSecret('oneline-secret-value');
    const rnd = random(33);
    for (let n = 0; n < 2000; n += 1) {
      let value = '';
      for (let k = Math.floor(rnd() * 6); k > 0; k -= 1) value += PIECES[Math.floor(rnd() * PIECES.length)]!;
      expect(oneLine(value)).toBe(reference(value));
    }
  });

  it('redacts a secret registered after an earlier redaction (the longest-first list is made again)', () => {
    expect(oneLine('late-secret-1 and late-secret-12')).toBe('late-secret-1 and late-secret-12');
    registerSecret('late-secret-1');
    registerSecret('late-secret-12');
    expect(oneLine('late-secret-1 and late-secret-12')).toBe('[redacted] and [redacted]');
    declareNotSecret('late-secret-12');
    expect(oneLine('late-secret-12')).toBe('[redacted]2');
  });
});
