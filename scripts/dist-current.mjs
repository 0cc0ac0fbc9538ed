// Whether dist/ is at least as new as everything it is built from (src/**/*.ts but tests,
// tsconfig.json, the bundle's options): `npm start` builds only when it is not.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** @param {string} root the repository root */
export function distIsCurrent(root) {
  const built = join(root, 'dist', 'cli.js');
  if (!existsSync(built)) return false;
  const inputs = [newestSource(join(root, 'src'))];
  for (const file of ['tsconfig.json', 'scripts/esbuild-options.mjs'])
    if (existsSync(join(root, file))) inputs.push(statSync(join(root, file)).mtimeMs);
  return statSync(built).mtimeMs >= Math.max(...inputs);
}
