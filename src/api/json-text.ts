import { isAscii, isUtf8 } from 'node:buffer';

/** Runs of bytes that are not ASCII, in a Latin-1 reading of UTF-8 (one character per byte). */
const NON_ASCII = /[\x80-\xff]+/g;
/** Escaping pays while non-ASCII is sparse: at most one run per this many bytes (else plain UTF-8). */
const BYTES_PER_RUN = 64;

/** Thrown out of `String.replace` to give up escaping (a lone backslash, or dense non-ASCII). */
const GIVE_UP = new Error('not escaped');

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
  let runs = Math.floor(bytes.length / BYTES_PER_RUN) + 1;
  try {
    return bytes.toString('latin1').replace(NON_ASCII, (run: string, at: number, text: string) => {
      runs -= 1;
      if (runs < 0 || afterEscapingBackslash(text, at)) throw GIVE_UP;
      return escapedRun(run);
    });
  } catch (error) {
    if (error !== GIVE_UP) throw error;
    return bytes.toString('utf8');
  }
}

/** The `\uXXXX` escapes of the characters of a run of valid UTF-8 bytes (read as Latin-1). */
function escapedRun(run: string): string {
  let out = '';
  let i = 0;
  while (i < run.length) {
    const c = run.charCodeAt(i);
    const b1 = run.charCodeAt(i + 1) & 0x3f;
    let cp: number;
    if (c < 0xe0) {
      cp = ((c & 0x1f) << 6) | b1;
      i += 2;
    } else if (c < 0xf0) {
      cp = ((c & 0x0f) << 12) | (b1 << 6) | (run.charCodeAt(i + 2) & 0x3f);
      i += 3;
    } else {
      cp =
        ((c & 0x07) << 18) |
        (b1 << 12) |
        ((run.charCodeAt(i + 2) & 0x3f) << 6) |
        (run.charCodeAt(i + 3) & 0x3f);
      i += 4;
    }
    if (cp < 0x10000) out += unitEscape(cp);
    else out += unitEscape(0xd800 | ((cp - 0x10000) >> 10)) + unitEscape(0xdc00 | (cp & 0x3ff));
  }
  return out;
}

const unitEscape = (unit: number): string => `\\u${(unit | 0x10000).toString(16).slice(1)}`;

/** Whether `text[at]` follows an odd run of backslashes (`\é`: not JSON; escaped, it would be). */
function afterEscapingBackslash(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && text.charCodeAt(j) === 0x5c) j -= 1;
  return (at - 1 - j) % 2 === 1;
}
