import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import type { ConfigSource, Revision } from './types.js';

export type GitSourceOptions = {
  url: string;
  branch: string;
  /** Sub-path of the config inside the repository. */
  path: string;
  workDir: string;
  sshKeyPath?: string;
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

/**
 * A git repository cloned once into a work folder, then fetched and hard-reset to the remote
 * branch head on every refresh. A failed fetch throws and leaves the last checkout in place.
 */
export class GitSource implements ConfigSource {
  readonly kind = 'git' as const;
  readonly configDir: string;
  private readonly checkout: string;

  constructor(private readonly opts: GitSourceOptions) {
    this.checkout = join(opts.workDir, 'repo');
    this.configDir = join(this.checkout, opts.path);
  }

  /**
   * git runs with a minimal environment: editors, pagers, askpass helpers and config overrides
   * from the daemon's environment never reach it (simple-git refuses them, rightly).
   */
  private git(dir?: string): SimpleGit {
    const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
    for (const [k, v] of Object.entries(process.env)) {
      if (
        v !== undefined &&
        /^(PATH|HOME|USER|LANG|LC_\w+|TMPDIR|TZ|SSL_CERT_\w+|GIT_SSL_\w+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSH_AUTH_SOCK)$/.test(
          k,
        )
      )
        env[k] = v;
    }
    if (this.opts.sshKeyPath)
      env['GIT_SSH_COMMAND'] =
        `ssh -i ${JSON.stringify(this.opts.sshKeyPath)} -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new`;
    const git = simpleGit({
      baseDir: dir ?? this.opts.workDir,
      timeout: { block: this.opts.timeoutMs ?? 60_000 },
      ...(this.opts.sshKeyPath ? { unsafe: { allowUnsafeSshCommand: true } } : {}),
    });
    return git.env(env);
  }

  async refresh(): Promise<Revision> {
    try {
      await mkdir(this.opts.workDir, { recursive: true });
      if (!existsSync(join(this.checkout, '.git'))) {
        await this.git().clone(this.opts.url, this.checkout, [
          '--branch',
          this.opts.branch,
          '--single-branch',
        ]);
      } else {
        const repo = this.git(this.checkout);
        await repo.fetch('origin', this.opts.branch);
        await repo.reset(['--hard', `origin/${this.opts.branch}`]);
        await repo.clean('f', ['-d']);
      }
      const log = await this.git(this.checkout).log({ maxCount: 1 });
      const head = log.latest;
      if (!head) throw new Error('the branch has no commits');
      return { id: head.hash, subject: head.message, ...(head.date ? { time: head.date } : {}) };
    } catch (error) {
      throw new Error(`git: ${scrubGitMessage((error as Error).message)}`, { cause: undefined });
    }
  }

  describe(): Record<string, string> {
    return { type: 'git', url: sanitizeUrl(this.opts.url), branch: this.opts.branch, path: this.opts.path };
  }
}
