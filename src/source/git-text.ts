import { GitError } from './git-process.js';

/**
 * The text that goes into git and comes out of it: the branch names accepted, the remote URL and
 * git's messages without credentials (for logs and status), and values written to git's config.
 */

/**
 * Why a branch name is refused, or undefined. The name is used only inside the fully qualified
 * `refs/heads/<name>` and `refs/remotes/origin/<name>`; git's own rules (git-check-ref-format), and
 * no option-like, `HEAD`, or `refs/…` name that reads as another ref.
 */
export function branchNameProblem(branch: string): string | undefined {
  if (branch === '') return 'is empty';
  if (branch.startsWith('-')) return 'starts with "-"';
  if (branch === 'HEAD' || branch === '@') return `is "${branch}", not a branch`;
  if (branch.startsWith('refs/')) return 'starts with "refs/": give the short branch name';
  // eslint-disable-next-line no-control-regex -- control characters are what git refuses
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(branch)) return 'holds a character git refuses in a ref';
  if (branch.includes('..') || branch.includes('@{') || branch.includes('//'))
    return 'holds "..", "@{" or "//"';
  if (branch.startsWith('/') || branch.endsWith('/') || branch.endsWith('.'))
    return 'starts or ends with "/", or ends with "."';
  if (branch.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock')))
    return 'has a part starting with "." or ending with ".lock"';
  return undefined;
}

/** The URL without credentials, for logs and status. */
export function sanitizeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]+@/, '//');
  }
}

/** Strip credentials from git's own messages (they may echo the remote URL). */
export function scrubGitMessage(message: string): string {
  return message
    .replace(/(\w+:\/\/)[^@\s/]+@/g, '$1')
    .split('\n')
    .slice(0, 5)
    .join(' ')
    .slice(0, 500);
}

/**
 * A value as git's config file reads it back: quoted (so that `#`, `;` and spaces stay the value's),
 * with the escapes git knows (`\\`, `\"`, `\n`, `\t`, `\b`). A NUL cannot be written (nor passed
 * to git as an argument).
 */
export function configValue(value: string): string {
  if (value.includes('\0')) throw new GitError('a NUL character cannot be written to git config');
  const escapes: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\b': '\\b' };
  return `"${value.replace(/[\\"\n\t\b]/g, (c) => escapes[c]!)}"`;
}
