import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type * as TypeScript from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, SRC, sources, ts } from '../helpers/sources.js';

/** The most lines a function of src/ may span, from its first line to its last, nested functions included (issue 28). */
const CEILING = 80;

/** The most lines a file of the emulator may have (issue 28: one route group, shape group or seed builder a file). */
const FILE_CEILING = 400;

type Measured = { name: string; lines: number; at: string };

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
      if (lines > CEILING) found.push({ name, lines, at: `${rel}:${first + 1}` });
      inner = name;
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, 'the module');
  return found;
}

describe('function size (issue 28)', () => {
  const measured = sources(SRC).flatMap(longFunctions);

  it(`no function of src/ spans more than ${CEILING} lines`, () => {
    expect(measured.map((m) => `${m.at} ${m.name}: ${m.lines} lines`)).toEqual([]);
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
});
