import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import type * as TypeScript from 'typescript';
import { describe, expect, it } from 'vitest';

// Required, not imported: node's ESM loader scans the 9 MB CommonJS `typescript.js` twice before
// running it (see layers.test.ts).
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

const ROOT = resolve(new URL('../../', import.meta.url).pathname);
const SRC = join(ROOT, 'src');

/** The most lines a function of src/ may span, from its first line to its last, nested functions included (issue 28). */
const CEILING = 80;

/**
 * Functions allowed to be longer than CEILING, with their length: a ratchet, empty since the tenth
 * stop split the last six (issue 28). An entry may only shrink, and goes when its function is
 * split. Keyed by file and name (an unnamed function by the function it is in).
 */
const LONGER: Record<string, number> = {};

/** The most lines a file of the emulator may have (issue 28: one route group, shape group or seed builder a file). */
const FILE_CEILING = 400;

type Measured = { key: string; lines: number; at: string };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** A function's name: its own, its variable's or property's, else `(anonymous in <the function it is in>)`. */
function nameOf(node: TypeScript.SignatureDeclaration, file: TypeScript.SourceFile, outer: string): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText(file);
  return `(anonymous in ${outer})`;
}

/** Every function of one file longer than CEILING lines. */
function longFunctions(path: string): Measured[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const rel = relative(ROOT, path);
  const visit = (node: TypeScript.Node, outer: string): void => {
    let inner = outer;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const name = nameOf(node, file, outer);
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > CEILING) found.push({ key: `${rel} ${name}`, lines, at: `${rel}:${first + 1}` });
      inner = name;
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, 'the module');
  return found;
}

describe('function size (issue 28)', () => {
  const measured = sources(SRC).flatMap(longFunctions);

  it(`no function of src/ spans more than ${CEILING} lines, but those listed, and those no more than they did`, () => {
    const over = measured
      .filter((m) => m.lines > (LONGER[m.key] ?? CEILING))
      .map(
        (m) =>
          `${m.at} ${m.key.split(' ').slice(1).join(' ')}: ${m.lines} lines (at most ${LONGER[m.key] ?? CEILING})`,
      );
    expect(over).toEqual([]);
  });

  it(`no file of src/emulator/ is over ${FILE_CEILING} lines`, () => {
    const long = sources(join(SRC, 'emulator'))
      .map((path) => ({
        path: relative(ROOT, path),
        lines: readFileSync(path, 'utf8').split('\n').length - 1,
      }))
      .filter((f) => f.lines > FILE_CEILING);
    expect(long).toEqual([]);
  });

  it('lists each of its longer functions once, each above the ceiling', () => {
    expect(Object.values(LONGER).filter((n) => n <= CEILING)).toEqual([]);
  });
});
