import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real git repository in a temp folder, committed to with the git CLI. A commit is one `sh`
 * running `git add` and `git commit` (and, for the first, `git init`): one process started from
 * the test worker instead of two or three (each start from a worker costs it 5–12 ms of CPU, the
 * fork of a large process; a shell's are cheap). `maintenance.auto=false`: `git commit` would
 * otherwise start `git maintenance run --auto` after each commit, for a repository that lives
 * seconds.
 */
export function makeRepo(files: Record<string, string>): {
  dir: string;
  url: string;
  /** The first commit's id. */
  head: string;
  commit: (files: Record<string, string>, message: string) => string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-repo-'));
  const GIT =
    'git -c user.name=Test -c user.email=test@example.com -c commit.gpgsign=false -c maintenance.auto=false';
  const sh = (script: string, ...args: string[]) =>
    execFileSync('sh', ['-ec', script, 'sh', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  const git = (...args: string[]) => sh(`${GIT} "$@"`, ...args);
  let initialized = false;
  const commit = (changes: Record<string, string>, message: string) => {
    for (const [path, content] of Object.entries(changes)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const init = initialized ? '' : 'git init -q -b main\n';
    sh(`${init}${GIT} add -A\nexec ${GIT} commit -q -m "$1"`, message);
    initialized = true;
    return head();
  };
  /**
   * The commit HEAD names, read from .git (a branch's loose ref: a fresh repository packs none)
   * rather than one more git process per commit.
   */
  const head = () => {
    const ref = readFileSync(join(dir, '.git', 'HEAD'), 'utf8').trim();
    if (!ref.startsWith('ref: ')) return ref;
    try {
      return readFileSync(join(dir, '.git', ref.slice('ref: '.length)), 'utf8').trim();
    } catch {
      return git('rev-parse', 'HEAD');
    }
  };
  const first = commit(files, 'initial config');
  return { dir, url: `file://${dir}`, head: first, commit };
}

/** The `git` the product would run (the first on PATH), found without a shell. */
export const gitOnPath = (): string =>
  (process.env['PATH'] ?? '')
    .split(':')
    .map((dir) => join(dir, 'git'))
    .find((file) => existsSync(file))!;
