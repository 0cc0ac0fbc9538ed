import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markers, shapeOf } from '../../scripts/compatibility-doc.js';
import { startEmulator, type Emulator } from '../../src/emulator/server.js';
import { findOperation } from '../helpers/openapi.js';

/**
 * docs/compatibility.md lists every endpoint docsync calls and whether the official document has
 * it. Its tables are generated from the kind registry (scripts/compatibility-doc.ts; that they are
 * fresh is test/ci/generated.test.ts): here they are checked against what does not come from the
 * registry: the route templates written in the client and the kinds, @gitbook/api, and the
 * emulator's routes in each flavor.
 */
const doc = readFileSync(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');

type Row = { method: string; path: string; cells: string[] };

/** The rows of a generated table of the page. */
function rowsOf(part: string): Row[] {
  const { start, end } = markers(part);
  const text = doc.slice(doc.indexOf(start), doc.indexOf(end));
  return [...text.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|(.*)\|$/gm)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
    cells: m[3]!.split('|').map((c) => c.trim()),
  }));
}

const calls = rowsOf('endpoints');
const emulatorOnly = rowsOf('emulator-only');
const shape = (path: string) => shapeOf(path);

/**
 * Every route label the API client and the kinds declare (src/api/** and src/kinds/**: the quoted
 * `/orgs/{org}/…` templates).
 */
function clientRoutes(): string[] {
  const found = new Set<string>();
  for (const where of ['../../src/api/', '../../src/kinds/', '../../src/live/']) {
    const dir = new URL(where, import.meta.url);
    for (const file of readdirSync(dir, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/'(\/(?:orgs|spaces|collections|user)[^' ]*)'/g)) found.add(shape(m[1]!));
    }
  }
  return [...found].sort();
}

const flavorsOf = (cell: string) => (cell === 'both' ? ['seed', 'current'] : cell === 'no' ? [] : [cell]);

describe('docs/compatibility.md, endpoint by endpoint', () => {
  let served: Record<string, Set<string>>;
  const emulators: Emulator[] = [];
  beforeAll(async () => {
    served = {};
    for (const flavor of ['seed', 'current'] as const) {
      const emu = await startEmulator({ port: 0, flavor });
      emulators.push(emu);
      served[flavor] = new Set(emu.routes().map((r) => `${r.method} ${shape(r.template)}`));
    }
  });
  afterAll(async () => {
    for (const emu of emulators) await emu.close();
  });

  it('lists every route the API client calls, and nothing else', () => {
    const listed = [...new Set(calls.map((r) => shape(r.path)))].sort();
    expect(clientRoutes().length).toBeGreaterThan(35);
    expect(listed).toEqual(clientRoutes());
  });

  it('says truly whether the official document has each one', () => {
    expect(calls.length).toBeGreaterThan(60);
    const wrong = [...calls, ...emulatorOnly].flatMap((r) => {
      const concrete = r.path.replace(/\{[^}]+\}/g, 'x1');
      const o = findOperation(r.method, concrete);
      const truth = !o ? 'no' : o.op.deprecated ? 'deprecated' : 'yes';
      return r.cells[0] === truth ? [] : [`${r.method} ${r.path}: says "${r.cells[0]}", document: ${truth}`];
    });
    expect(wrong).toEqual([]);
  });

  it('every route docsync calls in a flavor, the emulator serves in that flavor', () => {
    const missing = calls.flatMap((r) =>
      flavorsOf(r.cells[1]!)
        .filter((f) => !served[f]!.has(`${r.method} ${shape(r.path)}`))
        .map((f) => `${f}: ${r.method} ${r.path}`),
    );
    expect(missing).toEqual([]);
  });

  it('every route the emulator serves is listed, in the flavors it serves it', () => {
    const listed = new Map(
      [
        ...calls.map((r) => [r, r.cells[2]!] as const),
        ...emulatorOnly.map((r) => [r, r.cells[1]!] as const),
      ].map(([r, cell]) => [`${r.method} ${shape(r.path)}`, flavorsOf(cell)]),
    );
    const wrong = Object.entries(served).flatMap(([flavor, routes]) =>
      [...routes]
        .filter((route) => !listed.get(route)?.includes(flavor))
        .map((route) => `${flavor}: ${route}`),
    );
    expect(wrong).toEqual([]);
    expect(emulatorOnly.length).toBeGreaterThan(0);
  });
});
