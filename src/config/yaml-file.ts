import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as YamlLib from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { fastParseYaml, flowDepth } from './fast-yaml.js';
import type { ConfigIssue } from './issues.js';

let lib: typeof YamlLib | undefined;
/** The full YAML parser, loaded on first use: files inside the fast path's subset never need it. */
const yamlLib = (): typeof YamlLib => (lib ??= createRequire(import.meta.url)('yaml') as typeof YamlLib);

export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_ALIAS_COUNT = 100;
export const MAX_DEPTH = 64;

/**
 * One YAML file, parsed, with what is needed to point at any key in it. `doc` and `lines` (source
 * positions) may be computed on first use: only files with a problem to report need them.
 */
export type YamlFile = {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  readonly value: unknown;
};

/** Turn raw bytes into a parsed YAML file, or located issues (never throws). */
export function parseYamlFile(file: string, bytes: Buffer): YamlFile | ConfigIssue[] {
  const at = (code: ConfigIssue['code'], message: string, line = 1, column = 1): ConfigIssue[] => [
    { severity: 'error', code, file, line, column, path: '', message },
  ];
  if (bytes.length > MAX_FILE_BYTES)
    return at('file-too-large', `file is ${bytes.length} bytes; the limit is ${MAX_FILE_BYTES} bytes`);
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    const { line, column } = positionOfByte(bytes, nul);
    return at('binary-file', 'file contains a NUL byte; it looks like a binary file, not YAML', line, column);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const { line, column } = positionOfByte(bytes, bad);
    return at('invalid-utf8', 'file is not valid UTF-8', line, column);
  }
  if (text.trim().length === 0 || /^(\s*(#.*)?\n?)*$/.test(text)) return at('empty-file', 'file is empty');
  // Fast path: the common subset, without positions, never deeper than the bound (it measures the
  // nesting as nestingDepth does, in its own scan of the lines); the full parser for anything else.
  const fast = fastParseYaml(text, MAX_DEPTH);
  if (fast !== undefined) return withLazyPositions(file, text, fast);
  if (nestingDepth(text) > MAX_DEPTH) return at('too-deep', `nesting is deeper than ${MAX_DEPTH} levels`);
  return parseFull(file, text);
}

/**
 * The text of UTF-8 bytes; throws on invalid UTF-8. ASCII (nearly every config) is read as Latin-1,
 * which it is the same as (and which holds no byte-order mark to drop), without the decoder's
 * checks: 665 files, 6 → 2 ms (issue 33). One fatal decoder for the rest.
 */
function decodeUtf8(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : utf8.decode(bytes);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A file read by the fast path: positions come from a full parse on first use. */
function withLazyPositions(file: string, text: string, value: unknown): YamlFile {
  const positions = new Positions(file, text);
  const yaml = new LazyYamlFile(file, value, positions);
  const locator = new LazyYamlFile(file, undefined, positions);
  locators.set(yaml, locator);
  // An escape may spell any word: such a file's text says nothing sure (mayHoldAny). The locator
  // the loader keeps of the file answers it too.
  if (!text.includes('\\')) {
    plainTexts.set(yaml, text);
    plainTexts.set(locator, text);
  }
  return yaml;
}

/** A fast-path file's positions: its full parse, made on first use and kept. */
class Positions {
  private full: YamlFile | undefined;
  constructor(
    private readonly file: string,
    private readonly text: string,
  ) {}
  get(): YamlFile {
    if (!this.full) {
      const parsed = parseFull(this.file, this.text);
      if (Array.isArray(parsed))
        throw new Error(`${this.file}: the full YAML parser rejects what the fast one read`);
      this.full = parsed;
    }
    return this.full;
  }
}

/**
 * A fast-path file, its `doc` and `lines` taken from its positions when read. A class: an object
 * literal with getters defined its two accessors at run time, for each file (issue 33).
 */
class LazyYamlFile implements YamlFile {
  constructor(
    readonly file: string,
    readonly value: unknown,
    private readonly positions: Positions,
  ) {}
  get doc(): Document.Parsed {
    return this.positions.get().doc;
  }
  get lines(): LineCounter {
    return this.positions.get().lines;
  }
}

/**
 * The text of each file the fast path read that holds no `\` escape: every key and string of it is
 * written out in there as it reads.
 */
const plainTexts = new WeakMap<YamlFile, string>();

/**
 * Whether the fast path read the file: its value is a tree (no alias shares a node, none loops).
 */
export function readByFastPath(yaml: YamlFile): boolean {
  return locators.has(yaml);
}

/**
 * Whether any key or string value of the file may be one of `words`. `false` only when it is sure:
 * the fast path read the file (plain keys, scalars written as they read) and no `\` escape and none
 * of the words is in its text; then a walk that looks for them can be skipped (issue 33).
 */
export function mayHoldAny(yaml: YamlFile, words: readonly string[]): boolean {
  const text = plainTexts.get(yaml);
  if (text === undefined) return true;
  return words.length > 0 && anyOf(words).test(text);
}

/**
 * One expression for a list of words, made once per list: a scan of the text for any of them,
 * where a search per word scanned it once each (five words, a large config's 5.6 MB: 13–19 ms
 * against 2–5 ms, issue 33).
 */
function anyOf(words: readonly string[]): RegExp {
  let pattern = wordPatterns.get(words);
  if (!pattern) {
    pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
    wordPatterns.set(words, pattern);
  }
  return pattern;
}

const wordPatterns = new WeakMap<readonly string[], RegExp>();

const locators = new WeakMap<YamlFile, YamlFile>();

/**
 * The file as locating needs it (its positions, computed on first use), without its parsed value:
 * what outlives loading (a parsed file keeps it, and config/origins.ts one per file for a plan's
 * lifetime) need not hold a second copy of the whole config (decision 39).
 */
export function locatorOf(yaml: YamlFile): YamlFile {
  return locators.get(yaml) ?? yaml;
}

/** The full parser, with source positions and located errors. */
function parseFull(file: string, text: string): YamlFile | ConfigIssue[] {
  const at = (code: ConfigIssue['code'], message: string, line = 1, column = 1): ConfigIssue[] => [
    { severity: 'error', code, file, line, column, path: '', message },
  ];
  const { LineCounter, parseDocument, visit, isScalar } = yamlLib();
  const lines = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (error) {
    return at('yaml-syntax', `YAML could not be parsed: ${(error as Error).message}`);
  }
  if (doc.errors.length > 0) {
    return doc.errors.map((e) => {
      const pos = lines.linePos(e.pos[0]);
      const duplicate = e.code === 'DUPLICATE_KEY';
      return {
        severity: 'error' as const,
        code: duplicate ? ('duplicate-key' as const) : ('yaml-syntax' as const),
        file,
        line: pos.line,
        column: pos.col,
        path: '',
        message: duplicate ? 'duplicate key in a mapping' : firstLine(e.message),
      };
    });
  }
  const complexKeys: ConfigIssue[] = [];
  visit(doc, {
    Pair(_key, pair) {
      if (pair.key !== null && !isScalar(pair.key)) {
        const pos = lines.linePos((pair.key as Node).range?.[0] ?? 0);
        complexKeys.push({
          severity: 'error',
          code: 'invalid-type',
          file,
          line: pos.line,
          column: pos.col,
          path: '',
          message: 'mapping keys must be plain strings, not lists or mappings',
        });
      }
    },
  });
  if (complexKeys.length > 0) return complexKeys;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = (error as Error).message;
    if (/alias/i.test(message))
      return at('alias-limit', `too many alias expansions (limit ${MAX_ALIAS_COUNT})`);
    return at('yaml-syntax', firstLine(message));
  }
  if (value === null || value === undefined) return at('empty-file', 'file holds no document');
  return { file, doc, lines, value };
}

/** Line and column of the node at `path` (of its key when `key` is set); the document start otherwise. */
export function locate(
  yaml: YamlFile,
  path: readonly (string | number)[],
  key = false,
): { line: number; column: number } {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  let node: unknown = yaml.doc.contents;
  let keyNode: Node | undefined;
  let best: Node | undefined = isNodeLike(node) ? node : undefined;
  for (const part of path) {
    keyNode = undefined;
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part),
      );
      if (!pair) break;
      keyNode = pair.key as Node;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
    } else break;
    if (isNodeLike(node)) best = node;
    else if (keyNode) best = keyNode;
  }
  const target = key && keyNode ? keyNode : best;
  const offset = target?.range?.[0] ?? 0;
  const pos = yaml.lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function isNodeLike(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '');
}

function positionOfByte(bytes: Buffer, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < index; i += 1) {
    if (bytes[i] === 0x0a) {
      line += 1;
      start = i + 1;
    }
  }
  return { line, column: index - start + 1 };
}

function firstInvalidUtf8(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid));
      lo = mid;
    } catch {
      // an incomplete sequence at the cut also throws, so narrow carefully
      hi = mid;
    }
  }
  return lo;
}

/**
 * Cheap upper bound of the nesting of flow and block collections, checked before parsing: the
 * deepest count of open brackets, and half the deepest indentation of a line that holds anything
 * else than white space. Each line is scanned only up to its first other character (issue 33).
 * A text the fast path reads is measured so by its own scan (`fastParseYaml`'s `maxDepth`).
 */
function nestingDepth(text: string): number {
  const flow = text.includes('[') || text.includes('{') ? flowDepth(text) : 0;
  const block = deepestIndent(text) >> 1;
  return flow > block ? flow : block;
}

/** The deepest indentation (white space) of a line that holds anything else. */
function deepestIndent(text: string): number {
  let deepest = 0;
  for (let start = 0; start < text.length;) {
    let i = start;
    while (i < text.length && text.charCodeAt(i) !== 0x0a && isSpace(text.charCodeAt(i))) i += 1;
    if (i < text.length && text.charCodeAt(i) !== 0x0a && i - start > deepest) deepest = i - start;
    const newline = text.indexOf('\n', i);
    if (newline === -1) break;
    start = newline + 1;
  }
  return deepest;
}

/** What `String.prototype.trim` removes. */
const isSpace = (c: number) =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(String.fromCharCode(c)));
