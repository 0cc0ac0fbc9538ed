import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** Every test file of the repository, by path relative to the root. */
function testFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (['node_modules', 'dist', '.git', '.test-dist'].includes(d.name)) return [];
    const abs = join(dir, d.name);
    if (d.isDirectory()) return testFiles(abs);
    return d.name.endsWith('.test.ts') ? [relative(ROOT, abs)] : [];
  });
}

describe('docs/reliability.md (issue 14: every guarantee with the test that proves it)', () => {
  const doc = readFileSync(join(ROOT, 'docs/reliability.md'), 'utf8');
  const rows = doc
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| guarantee') && !/^\| -/.test(l));

  it('is one table whose every row names a test', () => {
    // A blank line inside the table splits it, and the rows after it stop rendering as a table.
    const table = doc.slice(doc.indexOf('| guarantee'), doc.indexOf('\n\n', doc.indexOf('| guarantee')));
    expect(table.split('\n')).toHaveLength(rows.length + 2);
    expect(rows.length).toBeGreaterThanOrEqual(20);
    // "same, …" points at the test of the row above.
    for (const row of rows) expect(row.split('|').at(-2), row.slice(0, 80)).toMatch(/\.test\.ts`|^\s*same, /);
  });

  it('names only test files that exist (a short name matches exactly one file)', () => {
    const files = testFiles();
    const named = new Set([...doc.matchAll(/`([\w./-]+\.test\.ts)`/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThan(20);
    const unknown = [...named].filter((name) => {
      if (name.includes('/')) return !existsSync(join(ROOT, name));
      return files.filter((f) => f.endsWith(`/${name}`)).length !== 1;
    });
    expect(unknown).toEqual([]);
  });
});
