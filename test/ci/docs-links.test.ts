import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const markdown = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'docs/decisions')).map((f) => `docs/decisions/${f}`),
];

describe('README and docs', () => {
  it('link only to files inside the repository, and every such link resolves', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const raw = readFileSync(join(ROOT, file), 'utf8');
      if (/\.\.\/shared\//.test(raw)) broken.push(`${file}: names ../shared/, outside the repository`);
      // Links outside code: fenced blocks and inline code spans are not links.
      const text = raw.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (!target || /^[a-z]+:/.test(target)) continue;
        const abs = join(dirname(join(ROOT, file)), decodeURIComponent(target));
        if (!abs.startsWith(ROOT)) broken.push(`${file}: ${target} is outside the repository`);
        else if (!existsSync(abs)) broken.push(`${file}: ${target} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });
});
