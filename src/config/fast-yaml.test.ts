import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { fastParseYaml, flowDepth } from './fast-yaml.js';
import { isInt, plainStart } from './fast-yaml-scalar.js';
import { repositoryYamlFiles } from '../../test/helpers/repository-yaml.js';

const root = new URL('../..', import.meta.url).pathname;

/** What the full parser makes of a text (the options of yaml-file.ts), or 'error'. */
function full(text: string): unknown {
  try {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
    if (doc.errors.length > 0) return 'error';
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return 'error';
  }
}

/** The fast path either declines (undefined) or agrees with the full parser exactly. */
function expectAgreement(text: string): unknown {
  const fast = fastParseYaml(text);
  if (fast !== undefined) expect({ text, value: fast }).toEqual({ text, value: full(text) });
  return fast;
}

describe('fastParseYaml', () => {
  it('reads the configs of the repository exactly as the full parser does, declining only outside its subset', () => {
    const files = repositoryYamlFiles();
    expect(files.length).toBeGreaterThan(40);
    const read = files.filter((f) => expectAgreement(readFileSync(f, 'utf8')) !== undefined);
    // The fast path is the common path, not a corner case.
    expect(read.length / files.length).toBeGreaterThan(0.8);
    expect(read).toContain(join(root, 'config/demo.yaml'));
  });

  it.each([
    [
      'plain keys, nested maps, compact and indented sequences',
      'a: 1\nb:\n  c: x\n  d:\n  - 1\n  - two\ne:\n  - f: 1\n    g: [a, "b", \'c\']\n',
    ],
    ['comments everywhere', '# head\na: b # tail\n  # indented comment\nc: d#not-a-comment\n'],
    [
      'core schema words and numbers',
      'a: ~\nb: null\nc: True\nd: FALSE\ne: -12\nf: +7\ng: 007\nh: yes\ni: no\nj: on\n',
    ],
    ['quotes and escapes', 'a: "x \\"y\\" \\u00e9 \\n"\nb: \'it\'\'s\'\nc: ""\nd: \'\'\n'],
    ['flow collections', 'a: { enabled: false, n: 3 }\nb: []\nc: {}\nd: [[1, 2], {x: y}]\n'],
    [
      'flow and quoted values read in place, with trailing spaces, CRLF and comments after them',
      "a: [x, \"y z\" , 'q''s']   \r\nb: {k: v}  # c\r\nc: \"e\\u00e9\\t\"  \nd: ''''\ne: [ a , b ]\n",
    ],
    ['flow values at the end of the text', "a: [1, [2, {b: c}]]\nb: 'x'''"],
    ['empty values', 'a:\nb:\n  -\n  - x\nc: 1\n'],
    ['urls and colons inside plain scalars', 'a: https://example.com/x\nb: a:b\n'],
    ['unicode', 'title: Título 文档\n'],
  ])('agrees with the full parser on %s', (_name, text) => {
    expect(expectAgreement(text)).not.toBeUndefined();
  });

  it.each([
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a block scalar', 'a: |\n  text\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a multi-line quoted scalar', 'a: "one\n  two"\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a float', 'a: 1.5\n'],
    ['an octal and a hex', 'a: 0o17\nb: 0x1F\n'],
    ['a special float', 'a: .inf\n'],
    ['a date-like string', 'a: 2024-01-01\n'],
    ['a document marker', '---\na: 1\n'],
    ['a tab', 'a:\t1\n'],
    ['a mapping value on a key line', 'a: b: c\n'],
    ['a trailing flow comma', 'a: [1, 2,]\n'],
    ['an unterminated flow collection', 'a: [1,\n  2]\n'],
    ['a complex key', '? [a]\n: 1\n'],
    ['a top-level sequence', '- a\n- b\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
    ['a sequence under a scalar', 'a: 1\n- b\n'],
    ['a proto key', '__proto__: 1\n'],
    ['a quoted key', '"a": 1\n'],
  ])('declines %s', (_name, text) => {
    expect(fastParseYaml(text)).toBeUndefined();
  });

  it('reads each key as written when keys share a place among the recent keys, and lines with trailing spaces or CRLF', () => {
    // `space`, `spice` and `slice` have the same length and first and last letters (one place
    // among the recent keys); keys longer than 12 characters are never kept.
    const lines = [
      'space: a   ',
      'spice:   ',
      '  - slice: b',
      '    space: c  ',
      '  -   ',
      '    spice: [d, e]   ',
      'a_very_long_key_name: f',
      'a_very_long_key_nome: g',
      'slice:',
      '  space: "h"  # note',
    ];
    for (const eol of ['\n', '\r\n']) {
      const text = lines.join(eol) + eol;
      expect(expectAgreement(text)).toEqual({
        space: 'a',
        spice: [{ slice: 'b', space: 'c' }, { spice: ['d', 'e'] }],
        a_very_long_key_name: 'f',
        a_very_long_key_nome: 'g',
        slice: { space: 'h' },
      });
    }
  });

  it('reads short keys and values kept by their characters as written, across the kept places and texts', () => {
    // Strings of 1 to 13 characters, each differing from a base in one character at every place
    // (the characters are kept packed four to a word: a wrong place or length would read another),
    // prefixes of each other, words the core schema reads as null, booleans and numbers, and non-ASCII.
    const base = 'abcdefghijkl';
    const words: string[] = [];
    for (let length = 1; length <= 13; length += 1) words.push(base.slice(0, length).padEnd(length, 'm'));
    for (let j = 0; j < base.length; j += 1)
      for (const c of ['a', 'z', 'A', '0', '_', '-', 'é'])
        if (j > 0 || /[a-zA-Z_é]/.test(c)) words.push(base.slice(0, j) + c + base.slice(j + 1));
    words.push('null', 'Null', '~', 'true', 'False', '12', '-7', '+3', 'v0', 'v00', 'ñ', 'Ω1');
    const keys = [...new Set(words)].filter(
      (w) => /^[A-Za-z_][\w-]*$/.test(w) && !['null', 'Null', 'true', 'False'].includes(w),
    );
    // More distinct keys and values than the kept places (512 and 1,024), each written twice.
    for (let i = 0; i < 1500; i += 1) keys.push(`k${i}`);
    for (let i = 0; i < 1500; i += 1) words.push(`w${i}`);
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => `  - ${keys[i % keys.length]}: ${words[(i * 7) % words.length]}`);
    const text = ['list:', ...entries(4 * words.length), 'map:'].join('\n') + '\n';
    const mapping = keys.map((k, i) => `  ${k}: ${words[i % words.length]}`).join('\n') + '\n';
    for (let pass = 0; pass < 2; pass += 1) {
      expect(expectAgreement(text + mapping)).toBeDefined();
      expect(expectAgreement(mapping.replace(/^ {2}/gm, ''))).toBeDefined();
    }
    // A value the subset declines (kept nowhere), then the same characters as a key, then valid again.
    expect(expectAgreement('a: "x"\nb: @x\n')).toBeUndefined();
    expect(expectAgreement('a: x\nb: a\nc: [a]\n')).toEqual({ a: 'x', b: 'a', c: ['a'] });
    expect(expectAgreement('null: 1\n')).toBeUndefined();
    expect(expectAgreement('a: null\nb: nul\nc: nulll\n')).toEqual({ a: null, b: 'nul', c: 'nulll' });
  });

  it('agrees with the full parser on generated documents', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const scalars = [
      'x',
      'a b',
      'null',
      '~',
      'True',
      'false',
      '12',
      '-3',
      '1.5',
      '0x1',
      '"q"',
      "'s'",
      '"a\\tb"',
      "'it''s'",
      '[a, b]',
      '{ k: v }',
      '[]',
      'a#b',
      'a #c',
      'http://h/p',
      '-a',
      '.x',
      '&a',
      '*a',
      '!t',
      '|',
      '>',
      '@x',
      '`x',
      '%x',
      'a: b',
      'é',
      '"\\u00e9"',
      '[a, [b, {c: d}]]',
      '{a: 1, a: 2}',
      'k:',
    ];
    const keys = ['a', 'b', 'c_d', 'e-f', 'true', 'null', '1', 'x y', '"q"', 'a'];
    const gen = (indent: number, depth: number): string[] => {
      const pad = ' '.repeat(indent);
      const out: string[] = [];
      const n = 1 + rnd(4);
      const seq = depth > 0 && rnd(3) === 0;
      for (let i = 0; i < n; i += 1) {
        const head = seq ? `${pad}- ` : `${pad}${keys[rnd(keys.length)]}:`;
        const r = rnd(10);
        if (depth < 3 && r < 3) {
          out.push(seq ? `${pad}-` : head);
          out.push(...gen(indent + 2 + rnd(2), depth + 1));
        } else if (depth < 3 && r === 3 && seq) {
          const [first, ...rest] = gen(indent + 2, depth + 1);
          out.push(`${pad}- ${first!.trimStart()}`, ...rest);
        } else if (r === 4) out.push(`${head}${seq ? '' : ' '}${scalars[rnd(scalars.length)]} # note`);
        else if (r === 5)
          out.push(`${pad}# comment`, `${head}${seq ? '' : ' '}${scalars[rnd(scalars.length)]}`);
        else out.push(`${head}${seq ? '' : ' '}${scalars[rnd(scalars.length)]}`);
      }
      return out;
    };
    let agreed = 0;
    for (let t = 0; t < 3000; t += 1) {
      const text = gen(0, 0).join('\n') + '\n';
      if (expectAgreement(text) !== undefined) agreed += 1;
    }
    // Enough of the documents stay inside the subset for the comparison to mean something.
    expect(agreed).toBeGreaterThan(300);
  });

  it('tells integers and the first character of a plain scalar as the regular expressions they replace', () => {
    const plain = /^[^-?:,[\]{}#&*!|>'"%@`.+0-9 ]/;
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c += 1)
      if (plainStart(c) !== plain.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
    const int = /^[-+]?[0-9]{1,15}$/;
    const words = [
      '',
      '-',
      '+',
      '0',
      '-0',
      '+7',
      '12a',
      'a12',
      '--1',
      '+-1',
      '1-',
      ' 1',
      '1 ',
      '1.5',
      '0x1f',
    ];
    words.push('9'.repeat(15), '9'.repeat(16), `-${'1'.repeat(15)}`, `+${'1'.repeat(16)}`, '١٢');
    for (const word of words) expect(isInt(word), word).toBe(int.test(word));
  });

  it('measures the brackets open at once as a scan of every character does', () => {
    const byChars = (text: string) => {
      let flow = 0;
      let deepest = 0;
      for (const c of text) {
        if (c === '[' || c === '{') deepest = Math.max(deepest, (flow += 1));
        else if ((c === ']' || c === '}') && flow > 0) flow -= 1;
      }
      return deepest;
    };
    const parts = ['[', ']', '{', '}', 'a', ' ', '\n', '"', 'é'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const texts = ['', 'abc', ']]][[', '[[[{{{'];
    for (let n = 0; n < 500; n += 1)
      texts.push(Array.from({ length: next() % 60 }, () => parts[next() % parts.length]).join(''));
    for (const text of texts)
      expect({ text, depth: flowDepth(text) }).toEqual({ text, depth: byChars(text) });
  });

  it('reads flow lists of plain scalars as the full parser does (split by native searches)', () => {
    const fixed = [
      '[]',
      '[ ]',
      '[a,,b]',
      '[a, ]',
      '[,a]',
      '[ a , b c ]',
      '[a:b]',
      '[a#b]',
      '[a #b]',
      "[it's]",
    ];
    fixed.push(
      '["x", y]',
      '[a, [b]]',
      '[1, -2, true, null, ~, .5]',
      '[a, b] # c',
      '[a, b]x',
      '[u@x.com, v@y.org]',
    );
    for (const list of fixed) expectAgreement(`members: ${list}\nnext: 1\n`);
    const parts = [' ', 'a', 'b', ',', '1', '-', ':', '#', "'", '"', '[', ']', '.', '@'];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let read = 0;
    for (let n = 0; n < 2000; n += 1) {
      const inside = Array.from({ length: next() % 12 }, () => parts[next() % parts.length]).join('');
      if (expectAgreement(`members: [${inside}]\nother: [a]\n`) !== undefined) read += 1;
    }
    // The subset is exercised, not only declined.
    expect(read).toBeGreaterThan(200);
  });

  it("ends a plain value at its comment or line, and declines its `: ` or last `:` (plainEnd's search)", () => {
    const values = [
      'a:b',
      'a: b',
      'a:',
      'a:  ',
      'a #c',
      'a#b',
      'a  #c',
      'a :b',
      'a : b',
      'http://x/y',
      'a b',
      'a:b:',
    ];
    const read: unknown[] = [];
    for (const v of values)
      for (const eol of ['\n', '\r\n', ''])
        for (const text of [`k: ${v}${eol}`, `k: ${v}${eol}n: 1${eol}`, `k:\n  - ${v}${eol}  - x: y${eol}`])
          read.push(expectAgreement(text));
    // Plain items of a block list, no colon after them: each one's search stops at its line.
    const list = Array.from({ length: 50 }, (_, i) => `  - u${i} #c${i}\n  - v${i}\n`).join('');
    expect(expectAgreement(`k:\n${list}`)).toEqual({
      k: Array.from({ length: 50 }, (_, i) => [`u${i}`, `v${i}`]).flat(),
    });
    expect(read.filter((v) => v !== undefined).length).toBeGreaterThan(40);
  });

  it('reads flow lists spaced in every way as the full parser does', () => {
    // Lists written `a, b` (even rounds) and spaced in any other way (odd rounds).
    const items = [
      'a',
      'b c',
      'b  c',
      '1',
      '-2',
      'true',
      'null',
      '~',
      'u@x.com',
      'x.y',
      '',
      ' ',
      '-x',
      '0x1',
    ];
    const seps = [', ', ',', ' ,', ',  ', ' , ', ', , '];
    const ends = ['', ' ', '  '];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let read = 0;
    for (let n = 0; n < 3000; n += 1) {
      const count = next() % 5;
      let inside = ends[next() % ends.length]!;
      for (let k = 0; k < count; k += 1)
        inside +=
          (k > 0 ? seps[next() % (n % 2 === 0 ? 1 : seps.length)]! : '') + items[next() % items.length]!;
      inside += ends[next() % ends.length]!;
      if (expectAgreement(`members: [${inside}]\nother: [a, b]\n`) !== undefined) read += 1;
    }
    for (const list of [
      '[a, b]',
      '[a,b]',
      '[a , b]',
      '[ a, b]',
      '[a, b ]',
      '[a,  b]',
      '[, a]',
      '[a, , b]',
      '[a, ]',
    ])
      expectAgreement(`members: ${list}\n`);
    expect(read).toBeGreaterThan(1000);
  });

  it("ends a flow list's last item at its own bracket, whatever commas follow later in the file", () => {
    // One-member and empty lists, each item's end searched up to its list's `]` only (a search for
    // the next comma of the file made such a file's read quadratic, decision 42's fourteenth pass).
    const teams = Array.from(
      { length: 60 },
      (_, i) => `  - name: t${i}\n    members: [${i % 3 === 0 ? '' : i % 3 === 1 ? `u${i}` : ` u${i} `}]\n`,
    ).join('');
    const value = expectAgreement(`teams:\n${teams}later: [x, y,z]\n`) as { teams: { members: string[] }[] };
    expect(value.teams.map((t) => t.members.length)).toEqual(
      Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? 0 : 1)),
    );
  });

  it('reads texts one after another whatever their count of lines against the line tables kept', () => {
    // The tables kept from one text to the next are used without a count of a text's lines when
    // they hold more lines than it has characters; a longer text counts them and may get new ones.
    for (const lines of [1, 1023, 1024, 1025, 3000, 10, 2047, 2048, 2049, 1]) {
      const text = `l:\n${'  - x\n'.repeat(lines - 1)}`;
      const value = expectAgreement(text) as { l: string[] | null };
      expect(value.l?.length ?? 0).toBe(lines - 1);
    }
  });
});
