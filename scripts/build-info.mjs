// The commit docsync is built from, which the bundles embed (scripts/build.mjs, scripts/bundle-action.mjs)
// and `docsync version` prints. DOCSYNC_BUILD_COMMIT wins (the image's build has no .git), else git's
// HEAD, else none (`docsync version` then says unknown).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const COMMIT = /^[0-9a-f]{7,40}$/;

export function currentCommit(dir = root) {
  const given = process.env.DOCSYNC_BUILD_COMMIT;
  if (given && COMMIT.test(given)) return given;
  if (!existsSync(join(dir, '.git'))) return undefined; // never the commit of a repository around us
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return COMMIT.test(head) ? head : undefined;
  } catch {
    return undefined;
  }
}
