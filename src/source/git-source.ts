import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { GitError, gitEnv, runGit } from './git-process.js';
import type { ConfigSource, Revision } from './types.js';

export type GitSourceOptions = {
  url: string;
  branch: string;
  /** Sub-path of the config inside the repository. */
  path: string;
  workDir: string;
  sshKeyPath?: string;
  /** Longest a single git command may run. */
  timeoutMs?: number;
};

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

/** The checkout's folder name: one per repository URL and branch, never shared between sources. */
export function checkoutKey(url: string, branch: string): string {
  return createHash('sha256').update(`${url}#${branch}`).digest('hex').slice(0, 16);
}

/**
 * A git repository cloned once into its own folder (keyed by URL and branch), then fetched and
 * hard-reset to the remote branch head on every refresh. Before use, the checkout is verified
 * (remote URL, branch); one that does not match is cloned again. A failed fetch throws: the
 * daemon keeps the last good revision of this same source, never another repository's files.
 */
export class GitSource implements ConfigSource {
  readonly kind = 'git' as const;
  readonly configDir: string;
  private readonly checkout: string;
  private readonly stopping = new AbortController();

  constructor(private readonly opts: GitSourceOptions) {
    this.checkout = join(opts.workDir, checkoutKey(opts.url, opts.branch));
    this.configDir = join(this.checkout, opts.path);
  }

  private git(args: string[], cwd = this.checkout): Promise<string> {
    return runGit(args, {
      cwd,
      env: gitEnv(process.env, this.opts.sshKeyPath),
      timeoutMs: this.opts.timeoutMs ?? 120_000,
      signal: this.stopping.signal,
    });
  }

  /** The checkout is this source's: its origin is the URL and its branch the branch. */
  private async verified(): Promise<boolean> {
    if (!existsSync(join(this.checkout, '.git'))) return false;
    try {
      const origin = (await this.git(['config', '--get', 'remote.origin.url'])).trim();
      const branch = (await this.git(['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
      return origin === this.opts.url && branch === this.opts.branch;
    } catch {
      return false;
    }
  }

  private async clone(): Promise<void> {
    const tmp = `${this.checkout}.clone-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    await rm(this.checkout, { recursive: true, force: true });
    await this.git(
      ['clone', '--branch', this.opts.branch, '--single-branch', '--', this.opts.url, tmp],
      this.opts.workDir,
    );
    await rename(tmp, this.checkout);
  }

  async refresh(): Promise<Revision> {
    try {
      await mkdir(this.opts.workDir, { recursive: true });
      if (!(await this.verified())) await this.clone();
      else {
        await this.git(['fetch', '--prune', 'origin', this.opts.branch]);
        await this.git(['reset', '--hard', `origin/${this.opts.branch}`]);
        await this.git(['clean', '-f', '-d']);
      }
      const [hash, date, ...subject] = (await this.git(['log', '-1', '--format=%H%n%aI%n%s']))
        .trim()
        .split('\n');
      if (!hash) throw new GitError('the branch has no commits');
      return { id: hash, subject: subject.join('\n'), ...(date ? { time: date } : {}) };
    } catch (error) {
      throw new GitError(`git: ${scrubGitMessage((error as Error).message)}`);
    }
  }

  /** Kill any git command in flight (its whole process group); later refreshes fail at once. */
  async stop(): Promise<void> {
    this.stopping.abort();
  }

  describe(): Record<string, string> {
    return { type: 'git', url: sanitizeUrl(this.opts.url), branch: this.opts.branch, path: this.opts.path };
  }
}
