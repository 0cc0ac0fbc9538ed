import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DocsyncError } from '../errors.js';
import { GitError, gitEnv, runGit } from './git-process.js';
import { branchNameProblem, configValue, sanitizeUrl, scrubGitMessage } from './git-text.js';
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
  /** Largest repository accepted, in bytes: its object store, and the working tree of the commit. */
  maxCheckoutBytes?: number;
};

/** A config repository is small; this leaves room for a monorepo with the config in a folder. */
export const DEFAULT_MAX_CHECKOUT_BYTES = 512 * 1024 * 1024;

/** The repository (its objects, or the working tree of the commit) is larger than allowed. */
export class CheckoutTooLargeError extends DocsyncError<'checkout-too-large'> {
  constructor(
    readonly what: 'objects' | 'working tree',
    readonly maxBytes: number,
  ) {
    super(
      'checkout-too-large',
      `git: the repository's ${what} would exceed the maximum checkout size of ${maxBytes} bytes ` +
        '(--max-checkout-bytes, DOCSYNC_MAX_CHECKOUT_BYTES)',
    );
  }
}

/** The checkout's folder name: one per repository URL and branch, never shared between sources. */
export function checkoutKey(url: string, branch: string): string {
  return createHash('sha256').update(`${url}#${branch}`).digest('hex').slice(0, 16);
}

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * A git repository fetched into its own folder (keyed by URL and branch). Only the branch is ever
 * fetched, by its fully qualified name and without tags (`--no-tags`, `--refmap=` so no configured
 * refspec applies), into `refs/remotes/origin/<branch>`; the working tree is reset to the commit
 * id fetched for that ref (read from FETCH_HEAD and the ref, which must agree), and `HEAD` is then
 * checked to be that very commit. A tag or branch named `origin/main` on the remote can therefore
 * never be what is checked out. Before use, the checkout is verified (remote URL, refspec, no tags,
 * branch); one that does not match is fetched again from scratch. The object store and the working
 * tree are bounded (`maxCheckoutBytes`). A poll first asks the remote where the branch is
 * (`git ls-remote`): still at the commit checked out, nothing is fetched or checked out (an idle
 * poll costs a daemon one git command, not seven). A failed fetch throws: the daemon keeps the last good
 * revision of this same source, never another repository's files.
 */
export class GitSource implements ConfigSource {
  readonly kind = 'git' as const;
  readonly configDir: string;
  private readonly checkout: string;
  private readonly stopping = new AbortController();
  private readonly maxBytes: number;
  /** The revision this source last checked out: an unchanged branch is not fetched again. */
  private current: Revision | undefined;
  /** `.git/config` and `.git/HEAD` as they were when last verified: unchanged, not read again. */
  private verifiedStamp: string | undefined;

  constructor(private readonly opts: GitSourceOptions) {
    this.checkout = join(opts.workDir, checkoutKey(opts.url, opts.branch));
    this.configDir = join(this.checkout, opts.path);
    this.maxBytes = opts.maxCheckoutBytes ?? DEFAULT_MAX_CHECKOUT_BYTES;
  }

  private get refspec(): string {
    return `+refs/heads/${this.opts.branch}:${this.trackingRef}`;
  }

  private get trackingRef(): string {
    return `refs/remotes/origin/${this.opts.branch}`;
  }

  private git(
    args: string[],
    cwd = this.checkout,
    extra: { signal?: AbortSignal; onStdout?: (chunk: Buffer) => void } = {},
  ): Promise<string> {
    return runGit(args, {
      cwd,
      env: gitEnv(process.env, this.opts.sshKeyPath),
      timeoutMs: this.opts.timeoutMs ?? 120_000,
      signal: extra.signal ?? this.stopping.signal,
      ...(extra.onStdout ? { onStdout: extra.onStdout } : {}),
    });
  }

  /** When and how `.git/config` and `.git/HEAD` were last written (inode, size, time). */
  private async stamp(): Promise<string | undefined> {
    try {
      const files = await Promise.all(['config', 'HEAD'].map((f) => stat(join(this.checkout, '.git', f))));
      return files.map((f) => `${f.ino}:${f.size}:${f.mtimeMs}:${f.ctimeMs}`).join(' ');
    } catch {
      return undefined;
    }
  }

  /**
   * The checkout is this source's, set up by this version: origin, refspec, no tags, branch.
   * Read again only when `.git/config` or `.git/HEAD` changed since the last verification.
   */
  private async verified(): Promise<boolean> {
    const stamp = await this.stamp();
    if (stamp !== undefined && stamp === this.verifiedStamp) return true;
    this.verifiedStamp = undefined;
    if (!(await this.verifiedNow())) return false;
    this.verifiedStamp = stamp;
    return true;
  }

  private async verifiedNow(): Promise<boolean> {
    if (!existsSync(join(this.checkout, '.git'))) return false;
    try {
      const head = await readFile(join(this.checkout, '.git', 'HEAD'), 'utf8');
      const remote = await this.git(['config', '--local', '--get-regexp', '^remote\\.origin\\.']);
      const expected = [
        `remote.origin.url ${this.opts.url}`,
        `remote.origin.fetch ${this.refspec}`,
        'remote.origin.tagopt --no-tags',
      ];
      return (
        head === `ref: refs/heads/${this.opts.branch}\n` &&
        remote.trim().split('\n').sort().join('\n') === expected.sort().join('\n')
      );
    } catch {
      return false;
    }
  }

  /** A new repository in a temporary folder, renamed into place once checked out. */
  private async clone(): Promise<Revision> {
    const tmp = `${this.checkout}.clone-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    await rm(this.checkout, { recursive: true, force: true });
    await this.git(['init', '--quiet', `--initial-branch=${this.opts.branch}`, '--', tmp], this.opts.workDir);
    // What `git remote add --no-tags -t <branch> origin <url>` writes, without a process for it.
    await appendFile(
      join(tmp, '.git', 'config'),
      `[remote "origin"]\n\turl = ${configValue(this.opts.url)}\n\tfetch = ${configValue(this.refspec)}\n\ttagOpt = --no-tags\n`,
    );
    const revision = await this.checkOut(tmp, await this.fetch(tmp, true), true);
    await rename(tmp, this.checkout);
    return revision;
  }

  /**
   * Fetch the branch alone, no tags, into its remote-tracking ref; the commit id fetched. Fetched
   * objects stay in one pack (never unpacked to loose objects), whose growth is watched: past the
   * bound, git is killed. A new repository's first fetch starts no `git maintenance run --auto`
   * (one pack, nothing to maintain); later fetches do, as the checkout's packs add up.
   */
  private async fetch(dir: string, fresh = false): Promise<string> {
    const tooLarge = new AbortController();
    const signal = AbortSignal.any([this.stopping.signal, tooLarge.signal]);
    const watch = setInterval(() => {
      void packBytes(dir).then((bytes) => {
        if (bytes > this.maxBytes) tooLarge.abort();
      });
    }, 200);
    try {
      await this.git(
        [
          ...(fresh ? ['-c', 'maintenance.auto=false'] : []),
          '-c',
          'fetch.unpackLimit=1',
          '-c',
          'transfer.unpackLimit=1',
          'fetch',
          '--quiet',
          '--no-tags',
          '--no-recurse-submodules',
          '--refmap=',
          'origin',
          this.refspec,
        ],
        dir,
        { signal },
      );
    } catch (error) {
      if (tooLarge.signal.aborted) throw new CheckoutTooLargeError('objects', this.maxBytes);
      throw error;
    } finally {
      clearInterval(watch);
    }
    if ((await packBytes(dir)) > this.maxBytes) throw new CheckoutTooLargeError('objects', this.maxBytes);
    return this.fetchedCommit(dir);
  }

  /** The commit fetched for the branch: FETCH_HEAD and the remote-tracking ref must agree. */
  private async fetchedCommit(dir: string): Promise<string> {
    const fetchHead = await readFile(join(dir, '.git', 'FETCH_HEAD'), 'utf8');
    const lines = fetchHead.split('\n').filter((l) => l !== '');
    const fetched = lines.length === 1 ? lines[0]!.split('\t')[0]! : '';
    // What the fetch wrote (a loose ref), read without a process; packed, git reads it. That it
    // names a commit is checked by `checkOut` before anything is written.
    const tracking = await this.readRef(dir, this.trackingRef);
    if (!OBJECT_ID.test(fetched) || fetched !== tracking)
      throw new GitError(`the commit fetched for branch ${this.opts.branch} could not be verified`);
    return fetched;
  }

  /**
   * The object id a ref names: its loose file when it has one (what fetch and reset write), else
   * `git rev-parse` (a packed ref); empty when it names none.
   */
  private async readRef(dir: string, ref: string): Promise<string> {
    const loose = await readFile(join(dir, '.git', ...ref.split('/')), 'utf8').catch(() => '');
    if (OBJECT_ID.test(loose.trim())) return loose.trim();
    return this.revParse(dir, `${ref}^{commit}`);
  }

  /** The commit `rev` names, empty when none; a stop or a timeout is not "none": it is thrown. */
  private async revParse(dir: string, rev: string): Promise<string> {
    try {
      return (await this.git(['rev-parse', '--verify', '--quiet', rev], dir)).trim();
    } catch (error) {
      if (this.stopping.signal.aborted || /timed out after/.test((error as Error).message)) throw error;
      return '';
    }
  }

  /**
   * Reset the working tree to exactly `id` (bounded in size), which must be a commit (`git log`
   * names it by its own id: a tag, tree or blob is refused before anything is written), then read
   * where HEAD's branch is: it must be `id`. The revision (id, date, subject) is that commit's.
   */
  private async checkOut(dir: string, id: string, fresh: boolean): Promise<Revision> {
    if ((await this.treeBytes(dir, id)) > this.maxBytes)
      throw new CheckoutTooLargeError('working tree', this.maxBytes);
    const [commit, date, ...subject] = (
      await this.git(['log', '-1', '--no-walk', '--format=%H%n%aI%n%s', id, '--'], dir)
    )
      .trim()
      .split('\n');
    if (commit !== id) throw new GitError(`${id} fetched for ${this.opts.branch} is not a commit`);
    await this.git(['reset', '--quiet', '--hard', id], dir);
    if (!fresh) await this.git(['clean', '-f', '-d', '-q'], dir);
    // HEAD as `git init` and `reset` write it (files refs); any other form (a reftable repository's
    // `refs/heads/.invalid`, a detached id) is left to git to read.
    const headFile = await readFile(join(dir, '.git', 'HEAD'), 'utf8');
    const head =
      headFile === `ref: refs/heads/${this.opts.branch}\n`
        ? await this.readRef(dir, `refs/heads/${this.opts.branch}`)
        : await this.revParse(dir, 'HEAD^{commit}');
    if (head !== id)
      throw new GitError(`the checkout is at ${head || '?'}, not at ${id} fetched for ${this.opts.branch}`);
    return { id, subject: subject.join('\n'), ...(date ? { time: date } : {}) };
  }

  /**
   * The bytes of every file of commit `id`, summed from the tree as `git ls-tree` lists it
   * (nothing written yet). Past `maxBytes` the listing is killed at once: a huge tree costs no
   * more than the bound's worth of output. Returns the total so far (over the bound when cut).
   */
  private async treeBytes(dir: string, id: string): Promise<number> {
    let total = 0;
    let rest = '';
    const over = new AbortController();
    try {
      await this.git(['ls-tree', '-r', '-l', '-z', '--full-tree', id], dir, {
        signal: AbortSignal.any([this.stopping.signal, over.signal]),
        onStdout: (chunk) => {
          if (over.signal.aborted) return;
          const records = (rest + chunk.toString('latin1')).split('\0');
          rest = records.pop() ?? '';
          for (const record of records) {
            const size = Number(record.slice(0, record.indexOf('\t')).trim().split(/ +/)[3]);
            if (Number.isFinite(size)) total += size;
          }
          if (total > this.maxBytes) over.abort();
        },
      });
    } catch (error) {
      // Killed for passing the bound (not for a stop): the total says so.
      if (!over.signal.aborted || this.stopping.signal.aborted) throw error;
    }
    return total;
  }

  /**
   * The commit the remote's branch is at (`git ls-remote`, the exact ref only), or undefined when
   * it names none: what a poll asks first, a fraction of a fetch and a checkout.
   */
  private async remoteHead(): Promise<string | undefined> {
    const ref = `refs/heads/${this.opts.branch}`;
    const listed = await this.git(['ls-remote', '--heads', '--', 'origin', ref]);
    const ids = listed
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([id, name]) => name === ref && OBJECT_ID.test(id ?? ''))
      .map(([id]) => id!);
    return ids.length === 1 ? ids[0] : undefined;
  }

  async refresh(): Promise<Revision> {
    try {
      const problem = branchNameProblem(this.opts.branch);
      if (problem) throw new GitError(`--branch "${this.opts.branch}" ${problem}`);
      await mkdir(this.opts.workDir, { recursive: true });
      if (!(await this.verified())) {
        this.current = await this.clone();
        // The checkout this source has just set up is its own: the next poll does not read its
        // config again (one `git config` fewer per clone) unless `.git/config` or HEAD changes.
        this.verifiedStamp = await this.stamp();
        return this.current;
      }
      // An idle poll: the branch is still at the commit this source checked out, so there is
      // nothing to fetch and nothing to check out (a changed config always changes the commit).
      const known = this.current;
      if (known && (await this.remoteHead()) === known.id) return known;
      return (this.current = await this.checkOut(this.checkout, await this.fetch(this.checkout), false));
    } catch (error) {
      if (error instanceof CheckoutTooLargeError) throw error;
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

/**
 * Bytes of the pack files of a repository, a pack being received included. Fetched objects are
 * always kept packed (`fetch.unpackLimit=1`), so this is what a fetch adds.
 */
async function packBytes(dir: string): Promise<number> {
  const packs = join(dir, '.git', 'objects', 'pack');
  let total = 0;
  for (const name of await readdir(packs).catch(() => [] as string[]))
    total += (await stat(join(packs, name)).catch(() => ({ size: 0 }))).size;
  return total;
}
