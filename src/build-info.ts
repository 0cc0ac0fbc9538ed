import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Set by esbuild's `define` in a bundle (the GitHub Action): the commit the bundle was built from. */
declare const __DOCSYNC_COMMIT__: string | undefined;

const COMMIT = /^[0-9a-f]{7,40}$/;

/** `dist/build-info.json`, written by `npm run build` (scripts/build-info.mjs). */
function fromBuildInfo(): string | undefined {
  try {
    const file = fileURLToPath(new URL('./build-info.json', import.meta.url));
    const info = JSON.parse(readFileSync(file, 'utf8')) as { commit?: unknown };
    return typeof info.commit === 'string' && COMMIT.test(info.commit) ? info.commit : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A checkout of docsync itself (a folder with docsync's package.json and .git): its HEAD. Never
 * the commit of a repository docsync merely sits in (node_modules of some project).
 */
function fromGit(): string | undefined {
  for (const up of ['../', '../../']) {
    const root = fileURLToPath(new URL(up, import.meta.url));
    try {
      const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { name?: unknown };
      if (pkg.name !== 'docsync' || !existsSync(`${root}.git`)) continue;
      const head = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5000,
      }).trim();
      if (COMMIT.test(head)) return head;
    } catch {
      // no package.json here, or no git: try the next folder up
    }
  }
  return undefined;
}

/** The commit docsync was built from: embedded at build time, else the checkout's HEAD, else `unknown`. */
export function buildCommit(): string {
  const embedded = typeof __DOCSYNC_COMMIT__ === 'string' ? __DOCSYNC_COMMIT__ : undefined;
  if (embedded && COMMIT.test(embedded)) return embedded;
  return fromBuildInfo() ?? fromGit() ?? 'unknown';
}
