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

import { afterSpaces, Bail, bail, inline, keyColon, plainKey, type Value } from './fast-yaml-scalar.js';

/**
 * Characters the subset does not handle anywhere: tabs, lone CRs, control and special line breaks,
 * BOM, and every other Unicode space or invisible format character (NBSP, U+1680, U+2000–U+200F,
 * U+202F, U+205F, U+2060, U+3000, U+FEFF…). YAML's only white space is the ASCII space and tab, so
 * such characters belong to the scalar they touch; declining them keeps the subset free of any
 * place where "space" could be read two ways.
 */
const UNSUPPORTED_CHARS =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff9-\ufffb\t]/;
const LONE_CR = /\r(?!\n)/;

/**
 * Whether `text` holds a character the subset does not handle (`UNSUPPORTED_CHARS`, or a CR not
 * before a LF). Two expressions, the second only for a text with a CR: one with both alternatives
 * scans a large config a third slower (issue 33).
 */
const unsupported = (text: string): boolean =>
  UNSUPPORTED_CHARS.test(text) || (text.includes('\r') && LONE_CR.test(text));

/**
 * Where the key of a `key:` line ends (the index of its colon), or -1: a key is `[A-Za-z_][\w-]*`
 * and its colon is followed by a space or ends the line (`/^([A-Za-z_][\w-]*):(?: +|$)/`, scanned by
 * hand: no match array per line, issue 33). The line's content is `text` from `from` to `end`
 * (what follows `end` is trailing spaces, a line break or nothing: never part of a key).
 */
function keyEnd(text: string, from: number, end: number): number {
  const colon = keyColon(text, from);
  if (colon === -1) return -1;
  return colon + 1 === end || text.charCodeAt(colon + 1) === 0x20 ? colon : -1;
}

/**
 * The value of `text`, or `undefined`: outside the subset, or nested deeper than `maxDepth` as
 * yaml-file.ts bounds it (brackets open at once, or half a line's indentation: its own line scan
 * measures the indentation, so the loader need not scan the lines once more before).
 */
export function fastParseYaml(text: string, maxDepth = Number.POSITIVE_INFINITY): Value | undefined {
  if (unsupported(text) || hasMarkers(text)) return undefined;
  if ((text.includes('[') || text.includes('{')) && flowDepth(text) > maxDepth) return undefined;
  const { indents, starts, ends } = lineTables(text);
  const n = readLines(text, indents, starts, ends, 2 * maxDepth + 1);
  if (n <= 0) return undefined;
  top = 0;
  try {
    const reader = new Reader(text, n, indents, starts, ends);
    if (indents[0] !== 0 || keyEnd(text, starts[0]!, ends[0]!) === -1) return undefined;
    const value = reader.collection(0, false);
    if (reader.i !== n) return undefined;
    return value;
  } catch (error) {
    if (error instanceof Bail) return undefined;
    throw error;
  } finally {
    // No value of this text stays referenced from the stack once it is read.
    stack.length = 0;
  }
}

/**
 * The deepest count of brackets open at once, anywhere in `text` (quotes and comments too: a bound).
 * The brackets are found by a native search (`BRACKETS.test` moves its `lastIndex` past each, and
 * makes no match array): a loop over every character ran cold over a large file's text (12 ms for
 * the 300 kB of a config's teams, issue 33).
 */
export function flowDepth(text: string): number {
  let flow = 0;
  let deepest = 0;
  BRACKETS.lastIndex = 0;
  while (BRACKETS.test(text)) {
    const c = text.charCodeAt(BRACKETS.lastIndex - 1);
    if (c === 0x5b || c === 0x7b) {
      flow += 1;
      if (flow > deepest) deepest = flow;
    } else if (flow > 0) flow -= 1;
  }
  return deepest;
}

const BRACKETS = /[[\]{}]/g;

/**
 * Whether a line starts with a directive (`%`) or a document marker (`---`, `...`): the full
 * parser's. (Such a line is never blank nor a comment.) Asked of the whole text before its lines
 * are read, not of each line in the loop (see readLines).
 */
const hasMarkers = (text: string): boolean =>
  text.startsWith('%') || text.startsWith('---') || text.startsWith('...') || MARKER_AFTER_LF.test(text);
/** One scan of the text for the three after a line feed (three searches took half as long again). */
const MARKER_AFTER_LF = /\n(?:%|---|\.\.\.)/;

/**
 * Lines as parallel lists of where each one's content starts and ends in `text` (no object and no
 * string per line, issue 33); a CR is only ever before a LF here. Returns how many lines hold
 * content, or -1 for a line (a comment too) indented deeper than `maxIndent`. A function of its
 * own, its loop all of it, with nothing taken only on a rare line: V8 compiles a long first file's
 * loop on the spot, with the feedback of what ran until then, and reuses that code at the next
 * calls; any code after the loop or on a line not yet met deoptimized it, at every file (issue 33).
 */
function readLines(
  text: string,
  indents: Int32Array,
  starts: Int32Array,
  ends: Int32Array,
  /** A line indented deeper, comments included, makes it answer -1 (nestingDepth's measure). */
  maxIndent: number,
): number {
  let n = 0;
  for (let start = 0; start <= text.length;) {
    let next = text.indexOf('\n', start);
    if (next === -1) next = text.length;
    let end = next > start && text.charCodeAt(next - 1) === 0x0d ? next - 1 : next;
    const body = afterSpaces(text, start);
    const indent = body - start;
    start = next + 1;
    if (body >= end) continue;
    if (indent > maxIndent) return -1;
    if (text.charCodeAt(body) === 0x23) continue;
    while (end > body && text.charCodeAt(end - 1) === 0x20) end -= 1;
    indents[n] = indent;
    starts[n] = body;
    ends[n] = end;
    n += 1;
  }
  return n;
}

type LineTables = { indents: Int32Array; starts: Int32Array; ends: Int32Array };

/**
 * The line tables, kept from one file to the next (files are read one at a time, each to the end
 * before the next): no array per file grows by copying, and none is garbage (issue 33: 186,000
 * lines, 13 MB of growing arrays, for a config of 100k resources). Tables above `KEPT_LINES` lines
 * are made for their file alone.
 */
let kept: LineTables | undefined;
const KEPT_LINES = 1 << 16;

function lineTables(text: string): LineTables {
  // A text has at most one line more than it has characters: kept tables that long need no count
  // of its lines (a search per line, over every file's text once more; issue 33).
  if (kept && kept.indents.length > text.length) return kept;
  const lines = lineCount(text);
  if (kept && kept.indents.length >= lines) return kept;
  const size = Math.max(1024, 2 ** Math.ceil(Math.log2(lines)));
  const tables = { indents: new Int32Array(size), starts: new Int32Array(size), ends: new Int32Array(size) };
  if (size <= KEPT_LINES) kept = tables;
  return tables;
}

/**
 * How many lines `text` has: one more than its line feeds (its last line may be empty). One search
 * call, in the loop (a first one before it had no feedback in the loop's code: see readLines).
 */
function lineCount(text: string): number {
  let count = 0;
  let i = -1;
  do {
    count += 1;
    i = text.indexOf('\n', i + 1);
  } while (i !== -1);
  return count;
}

class Reader {
  i = 0;
  constructor(
    private readonly text: string,
    /** How many lines the tables hold (they may be longer). */
    private readonly count: number,
    private readonly indents: Int32Array,
    /** Where each line's content starts in `text`: past `- ` once a sequence item is read as a mapping. */
    private readonly froms: Int32Array,
    /** Where each line's content ends in `text` (before trailing spaces and the line break). */
    private readonly ends: Int32Array,
  ) {}

  /** The indentation of the current line, or -1 past the last one. */
  private get indent(): number {
    return this.i < this.count ? this.indents[this.i]! : -1;
  }

  /** The block that starts at the current line, which must be indented deeper than `parent`. */
  private block(parent: number): Value {
    const indent = this.indent;
    if (indent <= parent) return null;
    const { text } = this;
    const from = this.froms[this.i]!;
    const end = this.ends[this.i]!;
    if (isItem(text, from, end)) return this.collection(indent, true);
    if (keyEnd(text, from, end) !== -1) return this.collection(indent, false);
    return bail();
  }

  /**
   * The block sequence (`items`) or block mapping whose lines start at the current line, indented
   * `indent`. One function for both, which calls itself: TurboFan never inlines a function into
   * itself, where `seq` and `map` as two functions were each inlined into the other's compile
   * jobs (with what `map` inlines: the same code compiled in three jobs, issue 33).
   */
  collection(indent: number, items: boolean): Value {
    if (items) {
      const base = top;
      for (let at = this.indent; at >= indent; at = this.indent) {
        const { text } = this;
        const from = this.froms[this.i]!;
        const end = this.ends[this.i]!;
        if (at > indent || !isItem(text, from, end)) {
          if (at > indent) bail();
          break;
        }
        const offset = afterSpaces(text, from + 1);
        let item: Value;
        if (offset >= end || text.charCodeAt(offset) === 0x23) {
          this.i += 1;
          item = this.block(indent);
        } else if (isItem(text, offset, end)) {
          return bail();
        } else if (keyEnd(text, offset, end) !== -1) {
          // `- key: value`: a mapping whose keys line up with the first one (read in place, no copy).
          this.indents[this.i] = indent + offset - from;
          this.froms[this.i] = offset;
          item = this.collection(indent + offset - from, false);
        } else {
          this.i += 1;
          item = inline(text, offset, end);
          this.noContinuation(indent);
        }
        stack[top] = item;
        top += 1;
      }
      const list = itemsFrom(base);
      top = base;
      return list;
    }
    const out: Record<string, Value> = {};
    for (let at = this.indent; at >= indent; at = this.indent) {
      if (at > indent) bail();
      const { text } = this;
      const from = this.froms[this.i]!;
      const end = this.ends[this.i]!;
      const colon = keyEnd(text, from, end);
      // Not a `key:` line (a sequence at the mapping's own indentation is read by the key before it).
      if (colon === -1) return bail();
      const key = plainKey(text, from, colon);
      if (Object.hasOwn(out, key)) bail();
      const restAt = afterSpaces(text, colon + 1);
      this.i += 1;
      let value: Value;
      if (restAt >= end || text.charCodeAt(restAt) === 0x23) {
        if (this.indent === indent && isItem(text, this.froms[this.i]!, this.ends[this.i]!))
          value = this.collection(indent, true);
        else value = this.block(indent);
      } else {
        value = inline(text, restAt, end);
        this.noContinuation(indent);
      }
      // One store for every key: a store that had seen one key only was compiled for it, and
      // deoptimized at the next (issue 33).
      out[key] = value;
    }
    return out;
  }

  /** A line indented deeper than a finished one-line value would continue it: not in the subset. */
  private noContinuation(indent: number): void {
    if (this.indent > indent) bail();
  }
}

/**
 * The items of the block sequences being read (`collection`), each sequence's above its parents':
 * a sequence's array is made at its end, of its count of items. An array grown by `push` from `[]`
 * holds 17 places at its first item (a section's four site spaces, a team's four members: 13 empty
 * places each, 1 MB of a large config's tree, carried through the scavenges while the config
 * loads) and was copied as it grew (issue 33).
 */
const stack: Value[] = [];
let top = 0;

/**
 * The items from `base` to the stack's top as an array of their count. Up to four by an array
 * literal (it keeps an allocation site, which V8 may pretenure: the config's arrays live on), more
 * by `slice` (a section's site spaces are four, a site's sections and a config's lists more, fewer).
 */
function itemsFrom(base: number): Value[] {
  switch (top - base) {
    case 0:
      return [];
    case 1:
      return [stack[base]];
    case 2:
      return [stack[base], stack[base + 1]];
    case 3:
      return [stack[base], stack[base + 1], stack[base + 2]];
    case 4:
      return [stack[base], stack[base + 1], stack[base + 2], stack[base + 3]];
    default:
      return stack.slice(base, top);
  }
}

/** Whether the line's content from `from` (to `end`) is a sequence item: `-` alone or `- ` and more. */
const isItem = (text: string, from: number, end: number) =>
  text.charCodeAt(from) === 0x2d && (from + 1 === end || text.charCodeAt(from + 1) === 0x20);
