// After `tsc` (npm run build): write dist/build-info.json, the commit docsync is built from, which
// `docsync version` prints. DOCSYNC_BUILD_COMMIT wins (the image's build has no .git), else git's
// HEAD, else none (`docsync version` then says unknown).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const commit = currentCommit();
  writeFileSync(join(root, 'dist', 'build-info.json'), `${JSON.stringify(commit ? { commit } : {})}\n`);
}
