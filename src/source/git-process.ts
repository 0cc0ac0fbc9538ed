import { spawn } from 'node:child_process';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

export class GitError extends DocsyncError<'git'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('git', message, options);
  }
}

/** Limits kept in git's environment unless the operator set their own. */
export const GIT_LIMITS = {
  /** Abort an HTTP transfer slower than this many bytes/s … */
  GIT_HTTP_LOW_SPEED_LIMIT: '1000',
  /** … for this many seconds (this also covers a server that accepts and never answers). */
  GIT_HTTP_LOW_SPEED_TIME: '30',
} as const;

const SSH_OPTIONS =
  '-o ConnectTimeout=15 -o ServerAliveInterval=15 -o ServerAliveCountMax=4 -o BatchMode=yes';

const PASSED =
  /^(PATH|HOME|USER|LANG|LC_\w+|TMPDIR|TZ|SSL_CERT_\w+|GIT_SSL_\w+|GIT_HTTP_LOW_SPEED_\w+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSH_AUTH_SOCK)$/;

/**
 * git's environment: a minimal allowlist of the daemon's (editors, pagers, askpass helpers and
 * config overrides never reach it), no prompts, and connect/low-speed limits for HTTP and SSH.
 */
export function gitEnv(from: NodeJS.ProcessEnv, sshKeyPath?: string): Record<string, string> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0', ...GIT_LIMITS };
  for (const [k, v] of Object.entries(from)) if (v !== undefined && PASSED.test(k)) env[k] = v;
  const key = sshKeyPath ? ` -i ${JSON.stringify(sshKeyPath)} -o IdentitiesOnly=yes` : '';
  env['GIT_SSH_COMMAND'] = `ssh ${SSH_OPTIONS}${key} -o StrictHostKeyChecking=accept-new`;
  return env;
}

const MAX_OUTPUT = 1024 * 1024;

/**
 * Run git in its own process group, so that a stop or a timeout kills git and everything it
 * started (remote helpers, ssh) at once. Resolves with stdout; rejects with the tail of stderr.
 */
export function runGit(
  args: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    timeoutMs: number;
    signal?: AbortSignal;
    /** Receive stdout as it comes (then it is not kept): for output of any length. */
    onStdout?: (chunk: Buffer) => void;
  },
): Promise<string> {
  /** The subcommand, for messages (`git -c k=v fetch …` is a fetch). */
  const name = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c') ?? args[0];
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new GitError('git: stopped'));
    const child = spawn('git', args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killedFor: string | undefined;
    const kill = (why: string) => {
      killedFor ??= why;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill(`timed out after ${opts.timeoutMs} ms`), opts.timeoutMs);
    const onAbort = () => kill('stopped');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (opts.onStdout) opts.onStdout(d);
      else if (stdout.length < MAX_OUTPUT) stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4096);
    });
    const done = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      done();
      reject(new GitError(`git ${name}: ${error.message}`));
    });
    child.on('close', (code) => {
      done();
      if (killedFor) reject(new GitError(`git ${name} ${killedFor}`));
      else if (code === 0) resolve(stdout);
      else reject(new GitError(`git ${name} failed: ${stderr.trim() || `exit ${code}`}`));
    });
  });
}
