/**
 * A fast reader for the common subset of YAML that configs are written in: block mappings with
 * plain keys, block sequences, one-line plain, single- and double-quoted scalars, one-line flow
 * collections and comments. It keeps no source positions and builds no syntax tree.
 *
 * It answers exactly what the full parser (`yaml`, core schema) would, or `undefined` whenever the
 * text steps outside the subset (anchors, tags, block scalars, multi-line scalars, duplicate keys,
 * unusual numbers, documents markers, tabs…): the caller then parses with the full parser, which
 * also reports errors with positions. So the fast path never decides anything the full parser
 * would decide differently; `fast-yaml.test.ts` checks that on a corpus, and
 * `yaml-differential.test.ts` on generated hostile documents with zero differences allowed
 * (decision 26).
 */

type Line = { indent: number; text: string };
type Value = unknown;

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};

/**
 * Characters the subset does not handle anywhere: tabs, lone CRs, control and special line breaks,
 * BOM, and every other Unicode space or invisible format character (NBSP, U+1680, U+2000–U+200F,
 * U+202F, U+205F, U+2060, U+3000, U+FEFF…). YAML's only white space is the ASCII space and tab, so
 * such characters belong to the scalar they touch; declining them keeps the subset free of any
 * place where "space" could be read two ways.
 */
const UNSUPPORTED_CHARS =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff9-\ufffb\t]|\r(?!\n)/;

/** Trailing ASCII spaces only: `String.prototype.trimEnd` would also take Unicode spaces. */
const trimSpaces = (s: string): string => {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end -= 1;
  return end === s.length ? s : s.slice(0, end);
};
const KEY = /^([A-Za-z_][\w-]*):(?: +|$)/;
const INT = /^[-+]?[0-9]{1,15}$/;
/** A plain scalar may not start with an indicator; `-`, `.`, `+` and digits start numbers (handled apart). */
const PLAIN_START = /^[^-?:,[\]{}#&*!|>'"%@`.+0-9 ]/;

export function fastParseYaml(text: string): Value | undefined {
  if (UNSUPPORTED_CHARS.test(text)) return undefined;
  const lines: Line[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let indent = 0;
    while (raw.charCodeAt(indent) === 0x20) indent += 1;
    const body = raw.slice(indent);
    if (body === '' || body.startsWith('#')) continue;
    // Directives and document markers: the full parser.
    if (indent === 0 && (body.startsWith('---') || body.startsWith('...') || body.startsWith('%')))
      return undefined;
    lines.push({ indent, text: trimSpaces(body) });
  }
  if (lines.length === 0) return undefined;
  try {
    const reader = new Reader(lines);
    if (lines[0]!.indent !== 0 || !KEY.test(lines[0]!.text)) return undefined;
    const value = reader.map(0);
    if (reader.i !== lines.length) return undefined;
    return value;
  } catch (error) {
    if (error instanceof Bail) return undefined;
    throw error;
  }
}

class Reader {
  i = 0;
  constructor(private readonly lines: Line[]) {}

  private get line(): Line | undefined {
    return this.lines[this.i];
  }

  /** The block that starts at the current line, which must be indented deeper than `parent`. */
  private block(parent: number): Value {
    const line = this.line;
    if (!line || line.indent <= parent) return null;
    if (isItem(line.text)) return this.seq(line.indent);
    if (KEY.test(line.text)) return this.map(line.indent);
    return bail();
  }

  map(indent: number): Record<string, Value> {
    const out: Record<string, Value> = {};
    for (let line = this.line; line && line.indent >= indent; line = this.line) {
      if (line.indent > indent) bail();
      const m = KEY.exec(line.text);
      // Not a `key:` line (a sequence at the mapping's own indentation is read by the key before it).
      if (!m) return bail();
      const key = m[1]!;
      if (!usableKey(key, out)) bail();
      const rest = line.text.slice(m[0].length);
      this.i += 1;
      if (rest === '' || rest.startsWith('#')) {
        const next = this.line;
        if (next && next.indent === indent && isItem(next.text)) out[key] = this.seq(indent);
        else out[key] = this.block(indent);
      } else {
        out[key] = inline(rest);
        this.noContinuation(indent);
      }
    }
    return out;
  }

  private seq(indent: number): Value[] {
    const out: Value[] = [];
    for (let line = this.line; line && line.indent >= indent; line = this.line) {
      if (line.indent > indent || !isItem(line.text)) {
        if (line.indent > indent) bail();
        return out;
      }
      let offset = 1;
      while (line.text.charCodeAt(offset) === 0x20) offset += 1;
      const rest = line.text.slice(offset);
      if (rest === '' || rest.startsWith('#')) {
        this.i += 1;
        out.push(this.block(indent));
      } else if (isItem(rest)) {
        bail();
      } else if (KEY.test(rest)) {
        // `- key: value`: a mapping whose keys line up with the first one.
        this.lines[this.i] = { indent: indent + offset, text: rest };
        out.push(this.map(indent + offset));
      } else {
        this.i += 1;
        out.push(inline(rest));
        this.noContinuation(indent);
      }
    }
    return out;
  }

  /** A line indented deeper than a finished one-line value would continue it: not in the subset. */
  private noContinuation(indent: number): void {
    const next = this.line;
    if (next && next.indent > indent) bail();
  }
}

const isItem = (text: string) => text === '-' || text.startsWith('- ');

/** A key the subset reads as the same string the full parser would, and not seen before. */
const usableKey = (key: string, seen: Record<string, Value>) =>
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

/** A value written on the rest of a line: a quoted, plain or flow scalar, then at most a comment. */
function inline(rest: string): Value {
  const c = rest[0]!;
  if (c === '"' || c === "'" || c === '[' || c === '{') {
    const cursor = { s: rest, i: 0 };
    const value = flowValue(cursor);
    skipSpaces(cursor);
    if (cursor.i < rest.length && !(rest[cursor.i] === '#' && rest[cursor.i - 1] === ' ')) bail();
    return value;
  }
  const hash = rest.indexOf(' #');
  const plain = trimSpaces(hash === -1 ? rest : rest.slice(0, hash));
  if (plain.includes(': ') || plain.endsWith(':') || plain.includes(' #')) bail();
  return resolvePlain(plain);
}

function resolvePlain(s: string): Value {
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
  if (INT.test(s)) return Number(s);
  if (!PLAIN_START.test(s)) bail();
  return s;
}

type Cursor = { s: string; i: number };

function skipSpaces(c: Cursor): void {
  while (c.s.charCodeAt(c.i) === 0x20) c.i += 1;
}

function flowValue(c: Cursor): Value {
  const ch = c.s[c.i];
  if (ch === '"') return doubleQuoted(c);
  if (ch === "'") return singleQuoted(c);
  if (ch === '[') {
    c.i += 1;
    const out: Value[] = [];
    skipSpaces(c);
    if (c.s[c.i] === ']') {
      c.i += 1;
      return out;
    }
    for (;;) {
      skipSpaces(c);
      out.push(flowValue(c));
      skipSpaces(c);
      const sep = c.s[c.i];
      c.i += 1;
      if (sep === ']') return out;
      if (sep !== ',') bail();
      skipSpaces(c);
      if (c.s[c.i] === ']') bail();
    }
  }
  if (ch === '{') {
    c.i += 1;
    const out: Record<string, Value> = {};
    skipSpaces(c);
    if (c.s[c.i] === '}') {
      c.i += 1;
      return out;
    }
    for (;;) {
      skipSpaces(c);
      const m = /^([A-Za-z_][\w-]*): +/.exec(c.s.slice(c.i));
      if (!m) bail();
      const key = m![1]!;
      if (!usableKey(key, out)) bail();
      c.i += m![0].length;
      out[key] = flowValue(c);
      skipSpaces(c);
      const sep = c.s[c.i];
      c.i += 1;
      if (sep === '}') return out;
      if (sep !== ',') bail();
      skipSpaces(c);
      if (c.s[c.i] === '}') bail();
    }
  }
  // A plain scalar inside a flow collection: up to the next separator.
  let end = c.i;
  while (end < c.s.length && !',[]{}:#'.includes(c.s[end]!)) end += 1;
  const plain = trimSpaces(c.s.slice(c.i, end));
  if (plain === '') bail();
  c.i = end;
  return resolvePlain(plain);
}

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

function doubleQuoted(c: Cursor): string {
  let out = '';
  for (let i = c.i + 1; i < c.s.length; i += 1) {
    const ch = c.s[i]!;
    if (ch === '"') {
      c.i = i + 1;
      return out;
    }
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = c.s[i + 1];
    if (e === undefined) bail();
    if (e === 'u') {
      const hex = c.s.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) bail();
      const code = parseInt(hex, 16);
      // Surrogates: the full parser.
      if (code >= 0xd800 && code <= 0xdfff) bail();
      out += String.fromCharCode(code);
      i += 5;
      continue;
    }
    const mapped = ESCAPES[e!];
    if (mapped === undefined) bail();
    out += mapped;
    i += 1;
  }
  // Not closed on this line: a multi-line scalar.
  return bail();
}

function singleQuoted(c: Cursor): string {
  let out = '';
  for (let i = c.i + 1; i < c.s.length; i += 1) {
    const ch = c.s[i]!;
    if (ch !== "'") {
      out += ch;
      continue;
    }
    if (c.s[i + 1] === "'") {
      out += "'";
      i += 1;
      continue;
    }
    c.i = i + 1;
    return out;
  }
  return bail();
}
