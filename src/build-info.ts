import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * Set by esbuild's `define` in a bundle (`npm run build`, the GitHub Action; scripts/esbuild-options.mjs):
 * the commit the bundle was built from.
 */
declare const __DOCSYNC_COMMIT__: string | undefined;

const COMMIT = /^[0-9a-f]{7,40}$/;

/**
 * A checkout of docsync itself (docsync's package.json beside a .git): its HEAD. Never the commit
 * of a repository docsync merely sits in (node_modules of some project).
 */
function fromGit(): string | undefined {
  const root = packageRoot();
  if (!root || !existsSync(join(root, '.git'))) return undefined;
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    return COMMIT.test(head) ? head : undefined;
  } catch {
    return undefined; // no git
  }
}

/** The commit docsync was built from: embedded at build time, else the checkout's HEAD, else `unknown`. */
export function buildCommit(): string {
  const embedded = typeof __DOCSYNC_COMMIT__ === 'string' ? __DOCSYNC_COMMIT__ : undefined;
  if (embedded && COMMIT.test(embedded)) return embedded;
  return fromGit() ?? 'unknown';
}
