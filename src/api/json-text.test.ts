import { isAscii, isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.js';

/** What `JSON.parse` makes of a text: the value, or that it throws. */
const outcome = (text: () => string): { value: unknown } | { throws: true } => {
  try {
    return { value: JSON.parse(text()) as unknown };
  } catch {
    return { throws: true };
  }
};
const same = (bytes: Buffer) =>
  expect(outcome(() => jsonText(bytes))).toEqual(outcome(() => bytes.toString('utf8')));

/** A small seeded generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\u0001',
  'é',
  'ß',
  '€',
  '日',
  '📄',
  '\u{10ffff}',
  '\ufeff',
];

function randomString(rnd: () => number): string {
  let s = '';
  const n = Math.floor(rnd() * 12);
  for (let i = 0; i < n; i += 1) s += ALPHABET[Math.floor(rnd() * ALPHABET.length)]!;
  return s;
}

function randomValue(rnd: () => number, depth: number): unknown {
  const pick = Math.floor(rnd() * (depth > 3 ? 4 : 6));
  if (pick === 0) return randomString(rnd);
  if (pick === 1) return Math.floor(rnd() * 2000) - 1000;
  if (pick === 2) return rnd() < 0.5;
  if (pick === 3) return null;
  const n = Math.floor(rnd() * 5);
  if (pick === 4) return Array.from({ length: n }, () => randomValue(rnd, depth + 1));
  return Object.fromEntries(
    Array.from({ length: n }, () => [randomString(rnd), randomValue(rnd, depth + 1)]),
  );
}

/**
 * The text as the RegExp replace made it before the word-at-a-time scan (`NonAscii`): each run of
 * non-ASCII bytes escaped, or the UTF-8 text when escaping gives up.
 */
function escapedByRegExp(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  if (isAscii(bytes)) return text;
  if (!isUtf8(bytes)) return bytes.toString('utf8');
  let runs = Math.floor(bytes.length / 64) + 1;
  let gaveUp = false;
  const escaped = text.replace(/[\x80-\xff]+/g, (run: string, at: number) => {
    runs -= 1;
    let j = at - 1;
    while (j >= 0 && text.charCodeAt(j) === 0x5c) j -= 1;
    if (runs < 0 || (at - 1 - j) % 2 === 1) gaveUp = true;
    let out = '';
    for (const ch of Buffer.from(run, 'latin1').toString('utf8'))
      for (let k = 0; k < ch.length; k += 1) out += `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`;
    return out;
  });
  return gaveUp ? bytes.toString('utf8') : escaped;
}

describe('jsonText', () => {
  it('makes the very text the RegExp replace made, at any alignment of the bytes in memory', () => {
    const rnd = random(7);
    const pieces = ['{"a":"', '"}', '\\', 'é', '📄', '日本', 'x', 'abcdefghijklmnopqrstuvwxyz0123456789'];
    // One memory for all, so that the bytes start at every offset of a 32-bit word.
    const memory = Buffer.alloc(4096);
    for (let i = 0; i < 2000; i += 1) {
      const parts = Array.from({ length: Math.floor(rnd() * 24) }, () =>
        rnd() < 0.03 ? Buffer.from([0xc3]) : Buffer.from(pieces[Math.floor(rnd() * pieces.length)]!, 'utf8'),
      );
      const source = Buffer.concat(parts);
      const offset = Math.floor(rnd() * 8);
      const bytes = memory.subarray(offset, offset + source.length);
      source.copy(bytes);
      expect(jsonText(bytes)).toBe(escapedByRegExp(bytes));
    }
  });

  it('parses to what the UTF-8 text parses to, for random JSON with non-ASCII strings and keys', () => {
    const rnd = random(33);
    for (let i = 0; i < 500; i += 1) {
      const value = randomValue(rnd, 0);
      const bytes = Buffer.from(JSON.stringify(value), 'utf8');
      expect(JSON.parse(jsonText(bytes))).toEqual(value);
    }
  });

  it('parses, or fails, as the UTF-8 text does for random bytes around JSON (invalid UTF-8, stray backslashes)', () => {
    const rnd = random(42);
    const pieces = ['{"a":"', '"}', '\\', '\\\\', 'é', '📄', '\\u00', '"', ',', '[', ']', 'x'].map((s) =>
      Buffer.from(s, 'utf8'),
    );
    const raw = [
      Buffer.from([0xc3]),
      Buffer.from([0xff]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xf0, 0x9f]),
    ];
    for (let i = 0; i < 1000; i += 1) {
      const parts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () =>
        rnd() < 0.1 ? raw[Math.floor(rnd() * raw.length)]! : pieces[Math.floor(rnd() * pieces.length)]!,
      );
      same(Buffer.concat(parts));
    }
  });

  it('keeps each case that escaping could change: a backslash before non-ASCII, a BOM, non-ASCII outside strings', () => {
    for (const text of [
      '"\\é"', // an escaping backslash: not JSON
      '"\\\\é"', // an escaped backslash, then é
      '"\\\\\\é"',
      '\ufeff{"a":1}', // a BOM: JSON.parse refuses it
      '{"a": é}',
      '{"é": "📄"}',
      '["\\u00é"]',
      '"ok"',
      '',
    ])
      same(Buffer.from(text, 'utf8'));
    same(Buffer.from([0x22, 0xc3, 0x28, 0x22])); // invalid UTF-8 inside a string: U+FFFD
  });

  it('reads ASCII, sparse and dense non-ASCII answers larger than 64 KB the same', () => {
    const item = (i: number, title: string) => ({ id: `space_${i}`, title, emoji: '📄', path: `v${i}` });
    for (const title of ['Space', 'Espace été', '日本語のドキュメント'])
      same(
        Buffer.from(
          JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => item(i, `${title} ${i}`)) }),
          'utf8',
        ),
      );
    same(Buffer.from(JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => `plain ${i}`) })));
  });
});
