import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SRC, sources, ts } from '../helpers/sources.js';

/**
 * The floors of src/, drawn from every import, type imports included (decision 0001): no file
 * reaches itself through its imports, and each floor of the core imports only the floors below it.
 * Hand-written (about fifty lines) because no cycle tool is installed: ESLint's `import-x/no-cycle`
 * does not follow type imports.
 *
 * Each source file of src/ (relative path) with the files of src/ it imports, `import type` and `export … from` too.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(ROOT, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
    graph.set(relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one file that imports itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The core's floors, from the ground up: a file may import its own floor and the floors below. */
const FLOORS = ['src/model/', 'src/diff/', 'src/kinds/', 'src/reconcile/', 'src/plan/'];
const floorOf = (file: string): number => FLOORS.findIndex((floor) => file.startsWith(floor));

describe('layers', () => {
  const graph = importGraph();

  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/diff/draft.ts')).toContain('src/model/index.ts');
  });

  it('has no import circle, type imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('has no circle between folders of src/ either (rooms, as farm-studio draws them)', () => {
    const room = (file: string) => file.split('/').slice(0, 2).join('/');
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = room(file);
      const to = targets.map(room).filter((t) => t !== from);
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...to])]);
    }
    expect(circles(folders)).toEqual([]);
  });

  it('finds a circle through type imports', () => {
    const toy = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(toy)).toEqual([['a', 'b', 'c']]);
  });

  it.each(FLOORS)(
    '%s imports nothing of the core above it (model/ only itself and src/errors.ts)',
    (floor) => {
      const level = FLOORS.indexOf(floor);
      const up = [...graph]
        .filter(([file]) => file.startsWith(floor))
        .flatMap(([file, targets]) =>
          targets
            .filter((t) => floorOf(t) > level || (level === 0 && floorOf(t) !== 0 && t !== 'src/errors.ts'))
            .map((t) => `${file} -> ${t}`),
        );
      expect(up).toEqual([]);
    },
  );

  it('api/ imports nothing of kinds/', () => {
    const up = [...graph]
      .filter(([file]) => file.startsWith('src/api/'))
      .flatMap(([file, targets]) => targets.filter((t) => floorOf(t) >= 2).map((t) => `${file} -> ${t}`));
    expect(up).toEqual([]);
  });
});
