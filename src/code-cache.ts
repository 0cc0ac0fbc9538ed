import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * Run a CommonJS program (the bundled CLI, dist/docsync.cjs) with a V8 code cache made at build
 * time (docs/decisions/0046-code-cache.md): V8 then neither parses the 1.9 MB file nor compiles
 * the functions the build's warm-up run compiled. Node 20 has no `module.enableCompileCache()`.
 *
 * The cache file is the SHA-256 of the program's text, then V8's data. A cache made for another
 * text is not used; one V8 refuses (another V8 version or other V8 flags, e.g. `--cpu-prof`) is
 * ignored by V8 itself (`cachedDataRejected`): either way the program is compiled as without a
 * cache. Under `--enable-source-maps` the program is loaded by `require`, whose loader maps stack
 * traces to src/.
 */
export type CodeCacheRun = {
  /** 'used': V8 took the cache; 'rejected': V8 refused it; 'stale': made for another text; 'none': no cache file; 'require': loaded by require(). */
  cache: 'used' | 'rejected' | 'stale' | 'none' | 'require';
  /** Write a cache of everything compiled so far (the build's warm-up calls it at exit). */
  writeCache: (file: string) => void;
};

const DIGEST_BYTES = 32;

/** Node's CommonJS wrapper, on the program's first line (`lineOffset` keeps line numbers true). */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';

/** The cache file beside a program. */
export const codeCacheFile = (program: string) => `${program}.cache`;

/**
 * Run `program` in this process, with the code cache beside it when it was made for its text.
 * `viaRequire`: load it with `require` (what `--enable-source-maps` needs).
 */
export function runWithCodeCache(program: string, opts: { viaRequire?: boolean } = {}): CodeCacheRun {
  const require = createRequire(program);
  if (opts.viaRequire) {
    require(program);
    return {
      cache: 'require',
      writeCache: () => {
        throw new Error('a program loaded by require() has no code cache to write');
      },
    };
  }
  const bytes = readFileSync(program);
  // The built program is ASCII (scripts/build.mjs checks): read as Latin-1, one byte a character,
  // without the UTF-8 decoding that a string of two bytes a character costs (decision 46).
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const digest = createHash('sha256').update(bytes).digest();
  const { data, cache } = readCache(codeCacheFile(program), digest);
  const script = new Script(`${WRAPPER_HEAD}${text}\n})`, {
    filename: program,
    lineOffset: -1,
    ...(data ? { cachedData: data } : {}),
  });
  const run = (data ? (script.cachedDataRejected ? 'rejected' : 'used') : cache) as CodeCacheRun['cache'];
  const module = { exports: {}, filename: program, id: '.', loaded: false };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    require,
    module,
    program,
    dirname(program),
  );
  return { cache: run, writeCache: (file) => writeCache(file, digest, script.createCachedData()) };
}

function readCache(file: string, digest: Buffer): { data?: Buffer; cache: 'stale' | 'none' } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { cache: 'none' };
  }
  if (bytes.length <= DIGEST_BYTES || !bytes.subarray(0, DIGEST_BYTES).equals(digest))
    return { cache: 'stale' };
  return { data: bytes.subarray(DIGEST_BYTES), cache: 'none' };
}

/** Written whole or not at all (a reader never sees half a cache). */
function writeCache(file: string, digest: Buffer, data: Buffer): void {
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, Buffer.concat([digest, data]));
  renameSync(part, file);
}
