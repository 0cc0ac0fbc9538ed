import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { fastParseYaml } from './fast-yaml.js';
import { parseYamlFile } from './yaml-file.js';

/**
 * The fast path must load exactly what `yaml` loads (the options of yaml-file.ts), or decline.
 * Documents are generated from YAML's troublesome corners: Unicode spaces, tabs, CRLF, BOM,
 * anchors and aliases, merge keys, tags, flow collections, quoted keys, odd numbers, the 1.1
 * booleans, nulls, timestamps, multi-line, block scalars, comments, duplicate keys. Zero
 * differences are allowed. Replay another seed with DOCSYNC_FUZZ_SEED.
 */

/** What the full parser makes of a text, or 'error' (exactly as yaml-file.ts parses it). */
function full(text: string): unknown {
  try {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
    if (doc.errors.length > 0) return 'error';
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return 'error';
  }
}

/** Strict equality: same types, same key order, `Object.is` on leaves (-0 ≠ 0, NaN = NaN). */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every(
        (k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return Object.is(a, b);
}

const UNICODE_SPACES = [
  '\u00a0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u200b',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u0085',
  '\u2028',
];

const SCALARS = [
  'x',
  'Docs',
  'a b',
  'é 文档',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'yes',
  'no',
  'Yes',
  'on',
  'off',
  'y',
  'n',
  'null',
  'Null',
  'NULL',
  '~',
  '0',
  '12',
  '+1',
  '-3',
  '-0',
  '+0',
  '012',
  '007',
  '08',
  '0o17',
  '0O17',
  '0x1F',
  '0X1f',
  '0b101',
  '1_000',
  '1e3',
  '1E3',
  '1e+3',
  '1.5',
  '.5',
  '5.',
  '1.0',
  '.inf',
  '-.inf',
  '+.INF',
  '.Inf',
  '.nan',
  '.NaN',
  '-.NaN',
  '.NAN',
  '2024-01-01',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 -5',
  '12:30:45',
  '190:20:30',
  '9007199254740993',
  '123456789012345',
  '1234567890123456',
  '123456789012345678901234567890',
  '"q"',
  "'s'",
  '"a\\tb"',
  '"\\x41"',
  '"\\u00e9"',
  '"\\U0001F600"',
  '"\\ud83d"',
  '"\\N\\_\\L\\P\\e\\a\\v"',
  '"\\/"',
  '"\\ "',
  '"a\\',
  "'it''s'",
  '""',
  "''",
  '"Docs "',
  "'x'y",
  '"x" y',
  '"x" #c',
  '[a, b]',
  '[ ]',
  '[a, "b", \'c\']',
  '{ k: v }',
  '{}',
  '{a: 1, a: 2}',
  '{"a": 1}',
  '{a: [1, 2], b: {c: ~}}',
  '[a, [b, {c: d}]]',
  '[a,]',
  '{a: 1,}',
  '[a: b]',
  '{a, b}',
  '[a',
  'a]',
  'a#b',
  'a #c',
  'a  #c',
  'http://h/p',
  'a:b',
  'a: b',
  'a:',
  '-a',
  '- a',
  '.x',
  '+x',
  '&a x',
  '&a',
  '*a',
  '*b',
  '!!str 1',
  '!!int "3"',
  '!!float 1',
  '!!bool yes',
  '!!null ""',
  '!foo x',
  '! x',
  '!!binary aGk=',
  '!!set {a}',
  '@x',
  '`x',
  '%x',
  '? x',
  '|x',
  '>x',
  ',x',
  'x,',
];

const KEYS = [
  'a',
  'b',
  'title',
  'prune',
  'a',
  'x y',
  'é',
  'a-b',
  '_k',
  '"a"',
  "'b'",
  '"a b"',
  '"\\u0061"',
  'true',
  'null',
  '~',
  '1',
  '0x1',
  '1.5',
  '<<',
  '__proto__',
  'constructor',
  '? a',
  '[a]',
  '{a: 1}',
  'a\u00a0',
  '&k a',
  '*a',
  '!!str k',
  '-k',
];

/** What configs are mostly made of: the fast path's subset. */
const TAME_SCALARS = [
  'x',
  'Docs',
  'a b',
  'é 文档',
  'true',
  'False',
  'null',
  '~',
  '0',
  '12',
  '+1',
  '-3',
  '012',
  '"q"',
  "'s'",
  '"a\\tb"',
  "'it''s'",
  '""',
  '[a, b]',
  '{ k: v }',
  '[]',
  'a#b',
  'a #c',
  'http://h/p',
  'a:b',
];
const TAME_KEYS = ['a', 'b', 'title', 'prune', 'c_d', 'e-f', 'id'];

type Random = () => number;

function rng(seed: number): Random {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(random: Random) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const chance = (p: number) => random() < p;
  /** How hostile the current document is, 0 to 1: each odd construct's chance is scaled by it. */
  let h = 1;
  const odd = (p: number) => chance(p * h);
  /** Sometimes a Unicode space (or a tab, or ASCII spaces) around a value. */
  const pad = (s: string) => {
    if (odd(0.12)) s = s + pick(UNICODE_SPACES);
    if (odd(0.04)) s = pick(UNICODE_SPACES) + s;
    if (odd(0.05)) s = s + pick(['\t', '  ', ' ']);
    return s;
  };
  const comment = () => (chance(0.1) ? pick([' # note', ' #', '  # é', odd(0.5) ? '\t# tab' : ' #x']) : '');
  const scalar = () => pad(odd(0.5) ? pick(SCALARS) : pick(TAME_SCALARS)) + comment();
  const key = () => pad(odd(0.4) ? pick(KEYS) : pick(TAME_KEYS));

  const block = (indent: number, depth: number): string[] => {
    const pad0 = ' '.repeat(indent);
    const out: string[] = [];
    const seq = depth > 0 && chance(0.35);
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i += 1) {
      if (chance(0.06)) out.push(`${pad0}${pick(['# comment', '', '  ', '#'])}`);
      const head = seq ? `${pad0}-` : `${pad0}${key()}:`;
      const r = random();
      const step = odd(0.5) ? pick([2, 3, 4, 1]) : 2;
      if (depth < 3 && r < 0.28) {
        out.push(head + (odd(0.1) ? pick([' &a', ' !!map', ' &b']) : '') + comment());
        const inner = block(indent + step, depth + 1);
        // A sequence may sit at its key's own indentation.
        if (!seq && odd(0.2))
          out.push(...block(indent, depth + 1).filter((l) => l.trimStart().startsWith('-')));
        out.push(...inner);
      } else if (depth < 3 && seq && r < 0.36) {
        const [first, ...rest] = block(indent + 2, depth + 1);
        out.push(`${pad0}- ${first!.trimStart()}`, ...rest);
      } else if (r < 0.36 + 0.06 * h) {
        // A block scalar, with its lines (sometimes a blank or a less indented one).
        out.push(`${head} ${pick(['|', '>', '|-', '>+', '|2', '>-'])}${comment()}`);
        const lines = 1 + Math.floor(random() * 3);
        for (let j = 0; j < lines; j += 1)
          out.push(chance(0.15) ? '' : `${' '.repeat(indent + pick([2, 2, 4, 1]))}${pad(pick(SCALARS))}`);
      } else if (r < 0.36 + 0.12 * h) {
        // A multi-line plain or quoted scalar.
        out.push(`${head} ${pick(['one', '"one', "'one", 'a b'])}`);
        out.push(
          `${' '.repeat(indent + pick([2, 1, 0, 4]))}${pad(pick(['two', 'two"', "two'", '- x', 'k: v']))}`,
        );
      } else if (r < 0.36 + 0.16 * h && !seq) {
        out.push(`${pad0}<<: ${pick(['*a', '*b', '[*a, *b]', '{k: v}'])}`);
      } else if (r < 0.36 + 0.2 * h) {
        // A flow collection over several lines.
        out.push(`${head} ${pick(['[a,', '{a: 1,', '[', '{'])}`);
        out.push(`${' '.repeat(indent + pick([2, 1, 0]))}${pick(['b]', 'c: 2}', ']', '}', 'x'])}`);
      } else out.push(`${head} ${scalar()}`);
    }
    return out;
  };

  return (): string => {
    h = chance(0.4) ? 0.1 : random();
    let lines = odd(0.07) ? [`- ${scalar()}`, `- ${scalar()}`] : block(0, 0);
    if (odd(0.04)) lines = [scalar()];
    if (odd(0.06)) lines.unshift(pick(['---', '--- # c', '%YAML 1.2\n---', '--- !!map']));
    if (odd(0.03)) lines.push(pick(['...', '---', '--- b: 1']));
    // A tab as indentation or before a value, on one line.
    if (odd(0.08)) {
      const i = Math.floor(random() * lines.length);
      lines[i] = lines[i]!.replace(/^( *)|(: )/, (m) => (m === ': ' ? ':\t' : '\t' + m));
    }
    // A Unicode space somewhere else: the end of a line, before a colon, as indentation.
    if (odd(0.3)) {
      const i = Math.floor(random() * lines.length);
      const u = pick(UNICODE_SPACES);
      lines[i] = pick([lines[i]! + u, lines[i]!.replace(':', `${u}:`), u + lines[i]!]);
    }
    let text = lines.join(chance(0.25) ? '\r\n' : '\n') + (chance(0.9) ? '\n' : '');
    if (odd(0.05)) text = '\ufeff' + text;
    if (odd(0.02)) text = text.replace('\n', '\r');
    return text;
  };
}

describe('the fast YAML path against the yaml library', () => {
  it('loads exactly what yaml loads on generated documents, or declines (zero differences)', () => {
    const seed = Number(process.env['DOCSYNC_FUZZ_SEED'] ?? 20261125);
    const next = generator(rng(seed));
    const differences: { text: string; fast: unknown; full: unknown }[] = [];
    let accepted = 0;
    let withUnicodeSpace = 0;
    const total = 6000;
    for (let i = 0; i < total; i += 1) {
      const text = next();
      if (UNICODE_SPACES.some((u) => text.includes(u))) withUnicodeSpace += 1;
      const fast = fastParseYaml(text);
      if (fast === undefined) continue;
      accepted += 1;
      const expected = full(text);
      if (!same(fast, expected)) differences.push({ text, fast, full: expected });
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(differences).toHaveLength(0);
    // The comparison means something: the fast path reads a good share, and the corners occur.
    expect(accepted).toBeGreaterThan(total * 0.1);
    expect(withUnicodeSpace).toBeGreaterThan(total * 0.1);
  });

  it.each([
    ['a plain title ending in NBSP', 'title: Docs\u00a0\n', { title: 'Docs\u00a0' }],
    ['a boolean followed by NBSP', 'prune: true\u00a0\n', { prune: 'true\u00a0' }],
    ['an ideographic space', 'title: Docs\u3000\n', { title: 'Docs\u3000' }],
    ['an en quad in a flow list', 'a: [x\u2000, y]\n', { a: ['x\u2000', 'y'] }],
    ['a BOM', '\ufeffa: 1\n', { a: 1 }],
  ])('loads %s as yaml does', (_name, text, value) => {
    expect(full(text)).toEqual(value);
    const loaded = parseYamlFile('t.yaml', Buffer.from(text));
    expect(Array.isArray(loaded)).toBe(false);
    expect((loaded as { value: unknown }).value).toEqual(value);
  });
});
