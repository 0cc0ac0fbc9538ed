import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFile, runWithCodeCache } from './code-cache.js';

// A program that records that it ran and what CommonJS gave it, with a function run only after
// its start (what a warm-up compiles lazily and a code cache then holds).
const program = (mark: string) => `
const g = globalThis;
function later(n) { return n * 2 + ${JSON.stringify(mark)}.length; }
g.codeCacheRuns.push({ mark: ${JSON.stringify(mark)}, later: later(1), file: __filename, dir: __dirname,
  ownRequire: typeof require('node:path').join, exportsIsThis: this === module.exports });
`;

type Ran = {
  mark: string;
  later: number;
  file: string;
  dir: string;
  ownRequire: string;
  exportsIsThis: boolean;
};
const runs = () => (globalThis as unknown as { codeCacheRuns: Ran[] }).codeCacheRuns;

describe('runWithCodeCache (the shipped CLI launcher, decision 46)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'docsync-code-cache-'));
    file = join(dir, 'program.cjs');
    (globalThis as unknown as { codeCacheRuns: Ran[] }).codeCacheRuns = [];
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    delete (globalThis as { codeCacheRuns?: unknown }).codeCacheRuns;
  });

  it('runs a program without a cache as CommonJS, then with the cache it wrote', () => {
    writeFileSync(file, program('a'));
    const first = runWithCodeCache(file);
    expect(first.cache).toBe('none');
    first.writeCache(codeCacheFile(file));
    expect(runWithCodeCache(file).cache).toBe('used');
    expect(runs()).toEqual([
      { mark: 'a', later: 3, file, dir, ownRequire: 'function', exportsIsThis: true },
      { mark: 'a', later: 3, file, dir, ownRequire: 'function', exportsIsThis: true },
    ]);
  });

  // The built program is ASCII and read as Latin-1; any other program is still read as UTF-8.
  it('reads a program holding non-ASCII text as UTF-8, with and without its cache', () => {
    writeFileSync(file, program('é→'));
    runWithCodeCache(file).writeCache(codeCacheFile(file));
    expect(runWithCodeCache(file).cache).toBe('used');
    expect(runs().map((r) => [r.mark, r.later])).toEqual([
      ['é→', 4],
      ['é→', 4],
    ]);
  });

  it('ignores a cache made for another text, even of the same length (a stale build)', () => {
    writeFileSync(file, program('a'));
    runWithCodeCache(file).writeCache(codeCacheFile(file));
    writeFileSync(file, program('b'));
    expect(runWithCodeCache(file).cache).toBe('stale');
    expect(runs().map((r) => [r.mark, r.later])).toEqual([
      ['a', 3],
      ['b', 3],
    ]);
  });

  it('runs the program when V8 refuses the cache or the cache file is cut short', () => {
    // A text this process never compiled (V8 would take it from its own cache of scripts), with
    // the right digest before data that is not V8's: V8 checks its own data and refuses it.
    writeFileSync(file, program(`refused ${process.hrtime.bigint()}`));
    const digest = createHash('sha256').update(readFileSync(file, 'utf8')).digest();
    writeFileSync(codeCacheFile(file), Buffer.concat([digest, Buffer.alloc(4096, 7)]));
    expect(runWithCodeCache(file).cache).toBe('rejected');
    writeFileSync(codeCacheFile(file), digest.subarray(0, 10));
    expect(runWithCodeCache(file).cache).toBe('stale');
    expect(runs()).toHaveLength(2);
  });

  it('loads the program with require() when asked (source-mapped stack traces)', () => {
    writeFileSync(file, program('r'));
    const run = runWithCodeCache(file, { viaRequire: true });
    expect(run.cache).toBe('require');
    expect(runs().map((r) => r.mark)).toEqual(['r']);
    expect(() => run.writeCache(codeCacheFile(file))).toThrow(/no code cache/);
  });

  it('reports a line of the program as written (the wrapper adds no line)', () => {
    writeFileSync(file, `\n\nthrow new Error('here');\n`);
    let stack = '';
    try {
      runWithCodeCache(file);
    } catch (error) {
      stack = (error as Error).stack ?? '';
    }
    expect(stack).toContain(`${file}:3:7`);
  });
});
