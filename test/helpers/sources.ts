import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TypeScript from 'typescript';
import { ROOT } from './cli.js';

/**
 * The TypeScript compiler, required, not imported: node's ESM loader scans the 9 MB CommonJS
 * `typescript.js` twice before running it (its module format, then its export names), about two
 * thirds of a file's CPU that only parses sources.
 */
export const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

/** The repository's root (test/helpers/cli.ts's) and its src/. */
export { ROOT };
export const SRC = join(ROOT, 'src');

/** Every source file under `dir` (`*.ts`, not the tests beside them). */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
