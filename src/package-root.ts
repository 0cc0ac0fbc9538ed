import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * docsync's own folder: the nearest folder above this module whose package.json is docsync's
 * (undefined: none, e.g. a copied bundle). Searched rather than `new URL('../../', import.meta.url)`
 * because the module's depth differs: src/ (tsx), dist/ (the bundle, decision 45),
 * .test-dist/bin/ (the tests' bundle), node_modules/docsync/dist/.
 */
export function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'docsync') return dir;
    } catch {
      // no package.json here (or not JSON): the folder above
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
