/** Random edits of YAML text for fuzzing the loader: insert syntax, cut, swap lines. */
/** A small seeded PRNG so a failing mutation can be replayed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pieces = [
  ':',
  '-',
  ' ',
  '\n',
  '[',
  ']',
  '{',
  '}',
  '&a',
  '*a',
  '"',
  "'",
  '#',
  '\t',
  'null',
  '~',
  '!!binary',
  '%',
  '@',
  '\u0000',
  '\uFFFD',
  'title: x',
  '  ',
  '---',
  '...',
  '|',
  '>',
  '? ',
  '0x',
  '1e999',
];

export function mutate(text: string, random: () => number): string {
  let out = text;
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const kind = random();
    if (kind < 0.4) out = out.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + out.slice(at);
    else if (kind < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 20));
    else {
      const lines = out.split('\n');
      const a = Math.floor(random() * lines.length);
      const b = Math.floor(random() * lines.length);
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      out = lines.join('\n');
    }
  }
  return out;
}
