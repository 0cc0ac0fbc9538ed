import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findOperation } from '../helpers/openapi.js';

/**
 * docs/compatibility.md lists every endpoint docsync calls and whether the official document has
 * it: both halves are checked, against the client's own route templates and against @gitbook/api.
 */
const doc = readFileSync(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');
const rows = [...doc.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|([^|]+)\|/gm)].map(
  (m) => ({
    method: m[1]!,
    path: m[2]!,
    official: m[3]!.trim(),
  }),
);
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/**
 * Every route label the API client and the kinds declare (src/api/** and src/kinds/**: the quoted
 * `/orgs/{org}/…` templates).
 */
function clientRoutes(): string[] {
  const found = new Set<string>();
  for (const where of ['../../src/api/', '../../src/kinds/']) {
    const dir = new URL(where, import.meta.url);
    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/'(\/(?:orgs|spaces|collections|user)[^' ]*)'/g)) found.add(shape(m[1]!));
    }
  }
  return [...found].sort();
}

describe('docs/compatibility.md, endpoint by endpoint', () => {
  it('lists every route the API client calls, and nothing else', () => {
    const listed = [...new Set(rows.map((r) => shape(r.path)))].sort();
    expect(clientRoutes().length).toBeGreaterThan(35);
    expect(listed).toEqual(clientRoutes());
  });

  it('says truly whether the official document has each one', () => {
    expect(rows.length).toBeGreaterThan(60);
    const wrong = rows.flatMap((r) => {
      const concrete = r.path.replace(/\{[^}]+\}/g, 'x1');
      const o = findOperation(r.method, concrete);
      const truth = !o ? 'no' : o.op.deprecated ? 'deprecated' : 'yes';
      return r.official.startsWith(truth)
        ? []
        : [`${r.method} ${r.path}: says "${r.official}", document: ${truth}`];
    });
    expect(wrong).toEqual([]);
  });
});
