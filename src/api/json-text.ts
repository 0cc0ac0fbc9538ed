import { isAscii, isUtf8 } from 'node:buffer';

/** Escaping pays while non-ASCII is sparse: at most one run per this many bytes (else plain UTF-8). */
const BYTES_PER_RUN = 64;
/** The high bit of each byte of a 32-bit word: a word with any set holds a byte that is not ASCII. */
const HIGH_BITS = 0x80808080;
const NO_WORDS = new Uint32Array(0);

/**
 * The text of a JSON answer, for `JSON.parse`: it parses to exactly what `bytes.toString('utf8')`
 * parses to (or fails as it fails), but is built faster and smaller (decision 42). Node 20 decodes
 * UTF-8 that holds any non-ASCII character into a two-byte string, twice the size of the bytes;
 * above 64 KB that string lands in the large-object space and decoding slows to about 40 MB/s.
 * An answer of the management API is ASCII but for a few characters (an emoji, an accented
 * title). ASCII is read as Latin-1 (a copy). Valid UTF-8 with sparse non-ASCII is read as Latin-1
 * too, each run of non-ASCII bytes replaced by the `\uXXXX` escapes of its characters: JSON allows
 * non-ASCII only inside strings, where the escape means the same character (and outside a string,
 * an escape is as invalid). Anything else (invalid UTF-8, dense non-ASCII, a non-ASCII character
 * right after an escaping backslash, which is not JSON) is decoded as UTF-8.
 */
export function jsonText(bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString('latin1');
  if (!isUtf8(bytes)) return bytes.toString('utf8');
  const text = bytes.toString('latin1');
  const scan = new NonAscii(bytes);
  let runs = Math.floor(bytes.length / BYTES_PER_RUN) + 1;
  let out = '';
  // The text up to `copied` is in `out`; each run of non-ASCII bytes, `at` to `end`, is escaped.
  let copied = 0;
  for (let at = scan.from(0); at < bytes.length; at = scan.from(copied)) {
    let end = at + 1;
    while (end < bytes.length && bytes[end]! >= 0x80) end += 1;
    runs -= 1;
    if (runs < 0 || afterEscapingBackslash(text, at)) return bytes.toString('utf8');
    out += text.slice(copied, at) + escapedRun(text, at, end);
    copied = end;
  }
  return out + text.slice(copied);
}

/**
 * Where the next byte that is not ASCII is, looked for a 32-bit word at a time (eight words a step
 * where there is none): with a RegExp's `[\x80-\xff]+` over the Latin-1 text, the text of a
 * sections page (80 kB, 100 emoji) took 120–130 µs, 40–60 µs this way; a loop a byte at a time is
 * slower than the RegExp.
 */
class NonAscii {
  /** The bytes' whole 32-bit words (those of their memory's 4-byte alignment). */
  private readonly words: Uint32Array;
  /** The index in the bytes of the first word's first byte (0 to 3). */
  private readonly base: number;

  constructor(private readonly bytes: Uint8Array) {
    const start = (bytes.byteOffset + 3) & ~3;
    const count = Math.max(0, (bytes.byteOffset + bytes.length - start) >> 2);
    // None: no view (its start may be past the end of the bytes' memory).
    this.words = count > 0 ? new Uint32Array(bytes.buffer, start, count) : NO_WORDS;
    this.base = Math.min(start - bytes.byteOffset, bytes.length);
  }

  /** The index of the first byte of 0x80 or above at or after `i` (the bytes' length: none). */
  from(i: number): number {
    const { bytes, words, base } = this;
    // The bytes before the first word, or up to the next word's start.
    while (i < base || (i - base) % 4 !== 0) {
      if (i >= bytes.length) return bytes.length;
      if (bytes[i]! >= 0x80) return i;
      i += 1;
    }
    let w = (i - base) >> 2;
    while (w + 8 <= words.length) {
      const any =
        words[w]! |
        words[w + 1]! |
        words[w + 2]! |
        words[w + 3]! |
        words[w + 4]! |
        words[w + 5]! |
        words[w + 6]! |
        words[w + 7]!;
      if ((any & HIGH_BITS) !== 0) break;
      w += 8;
    }
    while (w < words.length && (words[w]! & HIGH_BITS) === 0) w += 1;
    // Within that word (or after the last one): a byte at a time.
    for (i = base + w * 4; i < bytes.length; i += 1) if (bytes[i]! >= 0x80) return i;
    return bytes.length;
  }
}

/** The `\uXXXX` escapes of the characters of `text`'s run of valid UTF-8 bytes (read as Latin-1) from `i` to `end`. */
function escapedRun(text: string, i: number, end: number): string {
  let out = '';
  while (i < end) {
    const c = text.charCodeAt(i);
    const b1 = text.charCodeAt(i + 1) & 0x3f;
    let cp: number;
    if (c < 0xe0) {
      cp = ((c & 0x1f) << 6) | b1;
      i += 2;
    } else if (c < 0xf0) {
      cp = ((c & 0x0f) << 12) | (b1 << 6) | (text.charCodeAt(i + 2) & 0x3f);
      i += 3;
    } else {
      cp =
        ((c & 0x07) << 18) |
        (b1 << 12) |
        ((text.charCodeAt(i + 2) & 0x3f) << 6) |
        (text.charCodeAt(i + 3) & 0x3f);
      i += 4;
    }
    if (cp < 0x10000) out += unitEscape(cp);
    else out += unitEscape(0xd800 | ((cp - 0x10000) >> 10)) + unitEscape(0xdc00 | (cp & 0x3ff));
  }
  return out;
}

/** `\u` and the unit's four hex digits (lower case), made at once (not a number's `toString(16)` sliced). */
const unitEscape = (unit: number): string =>
  String.fromCharCode(
    0x5c,
    0x75,
    hexDigit(unit >> 12),
    hexDigit((unit >> 8) & 15),
    hexDigit((unit >> 4) & 15),
    hexDigit(unit & 15),
  );
const hexDigit = (d: number): number => d + (d < 10 ? 0x30 : 0x57);

/** Whether `text[at]` follows an odd run of backslashes (`\é`: not JSON; escaped, it would be). */
function afterEscapingBackslash(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && text.charCodeAt(j) === 0x5c) j -= 1;
  return (at - 1 - j) % 2 === 1;
}
