import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from './load.js';

/** A small seeded PRNG so a failing mutation can be replayed. */
function rng(seed: number) {
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

const sources = [
  '../../config/demo.yaml',
  '../../test/fixtures/config/good/root-spaces.yaml',
  '../../test/fixtures/config/good/teams.yaml',
].map((f) => readFileSync(new URL(f, import.meta.url), 'utf8'));

describe('loader under random mutations', () => {
  it('never throws: every mutation is valid or gets located errors (600 seeded cases)', () => {
    const random = rng(Number(process.env['DOCSYNC_FUZZ_SEED'] ?? 20261121));
    let invalid = 0;
    for (let i = 0; i < 600; i += 1) {
      const text = mutate(sources[i % sources.length]!, random);
      const result = loadConfigFromBuffers([{ file: 'm.yaml', bytes: Buffer.from(text) }]);
      if (result.desired === null) {
        invalid += 1;
        expect(result.issues.length).toBeGreaterThan(0);
        for (const issue of result.issues) {
          expect(issue.line).toBeGreaterThanOrEqual(1);
          expect(issue.column).toBeGreaterThanOrEqual(1);
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }
    }
    expect(invalid).toBeGreaterThan(100);
  });
});
