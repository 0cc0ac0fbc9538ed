/**
 * The one-line values of the fast YAML reader (fast-yaml.ts): plain, quoted and flow scalars, and
 * the keys and words the subset accepts. What steps outside the subset `bail`s: the reader then
 * answers `undefined` and the full parser reads the file.
 */
import { NOT_KEPT, recentSlices, recentSlot } from './recent-strings.js';

export type Value = unknown;

export class Bail extends Error {}
export const bail = (): never => {
  throw new Bail();
};

/** The index of the colon after a key `[A-Za-z_][\w-]*` written at `from`, or -1. */
export function keyColon(s: string, from: number): number {
  const first = s.charCodeAt(from);
  if (!(isLetter(first) || first === 0x5f)) return -1;
  let i = from + 1;
  // Bounded by the length: no read past the end (a deoptimization, see afterSpaces).
  for (; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (!(isLetter(c) || isDigit(c) || c === 0x5f || c === 0x2d)) break;
  }
  return i < s.length && s.charCodeAt(i) === 0x3a ? i : -1;
}

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * Index of the first character after the spaces at `i`. Bounded by the length: a read past the end
 * (a file's last line break, a flow collection that ends its line) deoptimizes the reader (issue 33).
 */
export function afterSpaces(s: string, i: number): number {
  while (i < s.length && s.charCodeAt(i) === 0x20) i += 1;
  return i;
}
/**
 * Whether `s` is an integer the subset reads, `/^[-+]?[0-9]{1,15}$/` (scanned by hand: a regular
 * expression's call per scalar, some 200,000 of them in a large config, issue 33).
 */
export function isInt(s: string): boolean {
  const sign = s.length > 0 && (s.charCodeAt(0) === 0x2d || s.charCodeAt(0) === 0x2b) ? 1 : 0;
  if (s.length - sign < 1 || s.length - sign > 15) return false;
  for (let i = sign; i < s.length; i += 1) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether a plain scalar may start with the character `c`, `/^[^-?:,[\]{}#&*!|>'"%@`.+0-9 ]/`: not an
 * indicator; `-`, `.`, `+` and digits start numbers (handled apart).
 */
export function plainStart(c: number): boolean {
  switch (c) {
    case 0x2d: // -
    case 0x3f: // ?
    case 0x3a: // :
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x7b: // {
    case 0x7d: // }
    case 0x23: // #
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case 0x27: // '
    case 0x22: // "
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
    case 0x2e: // .
    case 0x2b: // +
    case 0x20: // space
      return false;
    default:
      return !isDigit(c);
  }
}

/** A key the subset reads as the same string the full parser would, and not seen before. */
export const usableKey = (key: string, seen: Record<string, Value>) =>
  key.length <= 1000 && key !== '__proto__' && !reservedPlain(key) && !Object.hasOwn(seen, key);

/** Plain words the core schema reads as something other than a string. */
function reservedPlain(s: string): boolean {
  switch (s) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
    case 'true':
    case 'True':
    case 'TRUE':
    case 'false':
    case 'False':
    case 'FALSE':
      return true;
    default:
      return false;
  }
}

/**
 * A value written on the rest of a line (`text` from `from`, a character that is no space, to
 * `end`): a quoted, plain or flow scalar, then at most a comment.
 */
export function inline(text: string, from: number, end: number): Value {
  const c = text.charCodeAt(from);
  if (c === 0x22 || c === 0x27 || c === 0x5b || c === 0x7b) {
    // Read in place, up to `end`: no copy of the rest of the line (issue 33).
    const cursor: Cursor = { s: text, i: from, end };
    const value = flowValue(cursor);
    skipSpaces(cursor);
    if (cursor.i < end && !(text.charCodeAt(cursor.i) === 0x23 && text.charCodeAt(cursor.i - 1) === 0x20))
      bail();
    return value;
  }
  return plainValue(text, from, plainEnd(text, from, end));
}

/**
 * A block mapping's key (`text` from `from` to its colon `to`), usable as `usableKey` tells (but
 * for a repeat in its mapping, which the caller checks), or a bail. A kept key was usable: a hit
 * skips the checks.
 */
export function plainKey(text: string, from: number, to: number): string {
  const slot = recentSlot(recentKeys, text, from, to);
  if (slot >= 0) return recentKeys.strings[slot]!;
  const key = text.slice(from, to);
  if (key.length > 1000 || key === '__proto__' || reservedPlain(key)) bail();
  if (slot !== NOT_KEPT) recentKeys.strings[-2 - slot] = key;
  return key;
}

/** The keys read lately (`plainKey`): already internalized as property names once used. */
const recentKeys = recentSlices(512);

/** The plain scalar written from `from` to `to`, as `resolvePlain` reads it. A kept one's value is kept. */
function plainValue(text: string, from: number, to: number): Value {
  const slot = recentSlot(recentValues, text, from, to);
  if (slot >= 0) return recentValues.values[slot];
  const plain = text.slice(from, to);
  const value = resolvePlain(plain);
  if (slot !== NOT_KEPT) {
    recentValues.strings[-2 - slot] = plain;
    recentValues.values[-2 - slot] = value;
  }
  return value;
}

/** The plain values read lately (`plainValue`). */
const recentValues = recentSlices(1024);

/**
 * Where a plain scalar written from `from` ends: before a ` #` comment, and before the spaces at
 * its end. Bails where the subset stops: a `:` that a space follows, or that ends the scalar (a
 * `: ` inside, or a `:` last). One scan of the line's characters, not a slice and three searches
 * per value (issue 33).
 */
function plainEnd(text: string, from: number, end: number): number {
  let stop = end;
  for (let i = from; i < end; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) {
      if (i + 1 === end || text.charCodeAt(i + 1) === 0x20) bail();
    } else if (c === 0x20 && i + 1 < end && text.charCodeAt(i + 1) === 0x23) {
      stop = i;
      break;
    }
  }
  while (stop > from && text.charCodeAt(stop - 1) === 0x20) stop -= 1;
  return stop;
}

function resolvePlain(s: string): Value {
  // The words are 1 to 5 characters long: a longer scalar skips their ten comparisons.
  if (s.length <= 5) return resolveShort(s);
  if (isInt(s)) return Number(s);
  if (!plainStart(s.charCodeAt(0))) bail();
  return s;
}

/** `resolvePlain` of a scalar of at most 5 characters. */
function resolveShort(s: string): Value {
  switch (s) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    default:
      break;
  }
  if (isInt(s)) return Number(s);
  if (s.length === 0 || !plainStart(s.charCodeAt(0))) bail();
  return s;
}

/**
 * A flow value being read: `s` from `i`, up to `end` (the line's content; what follows is never
 * read). Characters are read as codes: a one-character string per read cost the flow lists of a
 * large config (3,000 teams' members) more than the rest of the reader (issue 33).
 */
type Cursor = { s: string; i: number; end: number };

/** The character code at the cursor, or -1 at its end. */
const peek = (c: Cursor): number => (c.i < c.end ? c.s.charCodeAt(c.i) : -1);

function skipSpaces(c: Cursor): void {
  while (c.i < c.end && c.s.charCodeAt(c.i) === 0x20) c.i += 1;
}

/**
 * A flow value. Lists and scalars in one function: with the list in a function of its own, TurboFan
 * compiled the list with the value inlined and the value with the list inlined (the same code twice).
 */
function flowValue(c: Cursor): Value {
  const ch = peek(c);
  if (ch === 0x22) return doubleQuoted(c);
  if (ch === 0x27) return singleQuoted(c);
  if (ch === 0x5b) {
    const plain = plainFlowSeq(c);
    if (plain !== undefined) return plain;
    c.i += 1;
    const out: Value[] = [];
    skipSpaces(c);
    if (peek(c) === 0x5d) {
      c.i += 1;
      return out;
    }
    for (;;) {
      skipSpaces(c);
      out.push(flowValue(c));
      skipSpaces(c);
      const sep = peek(c);
      c.i += 1;
      if (sep === 0x5d) return out;
      if (sep !== 0x2c) bail();
      skipSpaces(c);
      if (peek(c) === 0x5d) bail();
    }
  }
  if (ch === 0x7b) return flowMap(c);
  // A plain scalar inside a flow collection: up to the next separator.
  let end = c.i;
  while (end < c.end && !endsFlowPlain(c.s.charCodeAt(end))) end += 1;
  let stop = end;
  while (stop > c.i && c.s.charCodeAt(stop - 1) === 0x20) stop -= 1;
  if (stop === c.i) bail();
  const plain = c.s.slice(c.i, stop);
  c.i = end;
  return resolvePlain(plain);
}

/**
 * A flow list of plain scalars alone (`[a, b c]`: no quote, bracket, brace, colon or hash between
 * its brackets), read as `flowValue` reads it, or `undefined` for any other list. Its end and its
 * commas are found by native searches: a config's flow lists (3,000 teams' members) are read once,
 * mostly before TurboFan has compiled the reader, and a loop of calls per character is slow until
 * then (issue 33).
 */
function plainFlowSeq(c: Cursor): Value[] | undefined {
  const s = c.s;
  // The first special character after `[`: this list's `]` when it is a list of plain scalars.
  FLOW_SPECIAL.lastIndex = c.i + 1;
  if (!FLOW_SPECIAL.test(s)) return undefined;
  const close = FLOW_SPECIAL.lastIndex - 1;
  if (close >= c.end || s.charCodeAt(close) !== 0x5d) return undefined;
  const out: Value[] = [];
  for (let from = c.i + 1; ;) {
    // The item's end: the next `,` or this list's `]`, whichever comes first. Never a search for
    // `,` alone, which past a list's last item ran on to the next comma of the file (quadratic in a
    // file of one-member lists).
    FLOW_ITEM_END.lastIndex = from;
    FLOW_ITEM_END.test(s);
    const to = FLOW_ITEM_END.lastIndex - 1;
    let a = from;
    let b = to;
    while (a < b && s.charCodeAt(a) === 0x20) a += 1;
    while (b > a && s.charCodeAt(b - 1) === 0x20) b -= 1;
    if (a === b) {
      // `[]` or `[ ]`; an empty item (`[a,,b]`, `[a, ]`) is not in the subset, as in flowValue.
      if (to === close && from === c.i + 1) break;
      return bail();
    }
    out.push(resolvePlain(s.slice(a, b)));
    if (to === close) break;
    from = to + 1;
  }
  c.i = close + 1;
  return out;
}

/** What a plain scalar in a flow list does not hold, and the list's end (`plainFlowSeq`). */
const FLOW_SPECIAL = /[[\]{}"':#]/g;
/** An item's end in a flow list of plain scalars: no special character comes before its `]`. */
const FLOW_ITEM_END = /[,\]]/g;

/** A flow mapping (rare in configs: a function of its own, so the lists' code does not carry it). */
function flowMap(c: Cursor): Record<string, Value> {
  c.i += 1;
  const out: Record<string, Value> = {};
  skipSpaces(c);
  if (peek(c) === 0x7d) {
    c.i += 1;
    return out;
  }
  for (;;) {
    skipSpaces(c);
    const colon = keyColon(c.s, c.i);
    if (colon === -1 || colon + 1 >= c.end || c.s.charCodeAt(colon + 1) !== 0x20) bail();
    const key = c.s.slice(c.i, colon);
    if (!usableKey(key, out)) bail();
    c.i = colon + 1;
    skipSpaces(c);
    out[key] = flowValue(c);
    skipSpaces(c);
    const sep = peek(c);
    c.i += 1;
    if (sep === 0x7d) return out;
    if (sep !== 0x2c) bail();
    skipSpaces(c);
    if (peek(c) === 0x7d) bail();
  }
}

/** `,` `[` `]` `{` `}` `:` `#`: where a plain scalar inside a flow collection stops. */
const endsFlowPlain = (c: number) =>
  c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x3a || c === 0x23;

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
};

/** A double-quoted scalar: its runs without escapes taken as slices, not a character at a time. */
function doubleQuoted(c: Cursor): string {
  let out = '';
  let run = c.i + 1;
  for (let i = run; i < c.end; i += 1) {
    const ch = c.s.charCodeAt(i);
    if (ch === 0x22) {
      c.i = i + 1;
      return run === i ? out : out + c.s.slice(run, i);
    }
    if (ch !== 0x5c) continue;
    if (run < i) out += c.s.slice(run, i);
    if (i + 1 >= c.end) bail();
    const e = c.s[i + 1]!;
    if (e === 'u') {
      const hex = c.s.slice(i + 2, Math.min(i + 6, c.end));
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) bail();
      const code = parseInt(hex, 16);
      // Surrogates: the full parser.
      if (code >= 0xd800 && code <= 0xdfff) bail();
      out += String.fromCharCode(code);
      i += 5;
    } else {
      const mapped = ESCAPES[e];
      if (mapped === undefined) bail();
      out += mapped;
      i += 1;
    }
    run = i + 1;
  }
  // Not closed on this line: a multi-line scalar.
  return bail();
}

/** A single-quoted scalar (`''` is a quote): its runs taken as slices. */
function singleQuoted(c: Cursor): string {
  let out = '';
  let run = c.i + 1;
  for (let i = run; i < c.end; i += 1) {
    if (c.s.charCodeAt(i) !== 0x27) continue;
    if (i + 1 < c.end && c.s.charCodeAt(i + 1) === 0x27) {
      out += c.s.slice(run, i + 1);
      i += 1;
      run = i + 1;
      continue;
    }
    c.i = i + 1;
    return run === i ? out : out + c.s.slice(run, i);
  }
  return bail();
}
