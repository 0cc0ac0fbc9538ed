import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real git repository in a temp folder, committed to with the git CLI. */
export function makeRepo(files: Record<string, string>): {
  dir: string;
  url: string;
  commit: (files: Record<string, string>, message: string) => string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-repo-'));
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args],
      { cwd: dir, encoding: 'utf8' },
    ).trim();
  git('init', '-q', '-b', 'main');
  const commit = (changes: Record<string, string>, message: string) => {
    for (const [path, content] of Object.entries(changes)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    git('add', '-A');
    git('commit', '-q', '-m', message);
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
  commit(files, 'initial config');
  return { dir, url: `file://${dir}`, commit };
}
