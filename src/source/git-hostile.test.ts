import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { gitOnPath, makeRepo } from '../../test/helpers/git.js';
import { GitError } from './git-process.js';
import { CheckoutTooLargeError, checkoutKey, GitSource } from './git-source.js';
import { branchNameProblem } from './git-text.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
/**
 * A lightweight tag at the repository's first commit: the loose ref file `git tag <name>` writes,
 * without a process for it.
 */
const tag = (repo: { dir: string; head: string }, name: string) => {
  const file = join(repo.dir, '.git', 'refs', 'tags', ...name.split('/'));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${repo.head}\n`);
};
const state = () => mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
const org = (source: GitSource) => readFileSync(join(source.configDir, 'org.yaml'), 'utf8');

/**
 * Refs anyone with push rights can create, all at an old commit: tags and branches whose names
 * read as the branch or its remote-tracking ref. With prune on, applying the old commit deletes
 * what was added since; pinning there ignores every later push.
 */
const HOSTILE_REFS = [
  'refs/tags/origin/main',
  'refs/tags/main',
  'refs/tags/refs/remotes/origin/main',
  'refs/tags/refs/heads/main',
  'refs/heads/origin/main',
  'refs/heads/refs/remotes/origin/main',
];

describe('git source against a hostile remote', () => {
  it('follows the branch, never a tag or branch named like it: fresh clone, then every fetch', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: old\n' });
    const old = repo.head;
    execFileSync('git', ['update-ref', '--stdin'], {
      cwd: repo.dir,
      input: HOSTILE_REFS.map((ref) => `create ${ref} ${old}\n`).join(''),
    });
    const second = repo.commit({ 'config/org.yaml': 'organization: second\n' }, 'second');
    const source = new GitSource({ url: repo.url, branch: 'main', path: 'config', workDir: state() });
    expect((await source.refresh()).id).toBe(second);
    expect(org(source)).toContain('second');
    // No tag reached the checkout: it fetches the branch's ref alone (every ref listed, no refs/tags/).
    const checkout = join(source.configDir, '..');
    expect(git(checkout, 'for-each-ref', '--format=%(refname)')).toBe(
      'refs/heads/main\nrefs/remotes/origin/main',
    );
    const third = repo.commit({ 'config/org.yaml': 'organization: third\n' }, 'third');
    expect((await source.refresh()).id).toBe(third);
    expect(org(source)).toContain('third');
    expect(git(checkout, 'rev-parse', 'HEAD')).toBe(third);
  });

  it('a checkout made by an earlier version (tags fetched with it) is set up again, without them', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: old\n' });
    tag(repo, 'origin/main');
    const second = repo.commit({ 'config/org.yaml': 'organization: second\n' }, 'second');
    const workDir = state();
    const checkout = join(workDir, checkoutKey(repo.url, 'main'));
    git(workDir, 'clone', '-q', '--branch', 'main', '--single-branch', '--', repo.url, checkout);
    expect(git(checkout, 'tag', '--list')).toBe('origin/main');
    const source = new GitSource({ url: repo.url, branch: 'main', path: 'config', workDir });
    expect((await source.refresh()).id).toBe(second);
    expect(git(checkout, 'tag', '--list')).toBe('');
  });

  it("no configured refspec brings tags in: the operator's git config asking for every tag is overridden", async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: old\n' });
    tag(repo, 'origin/main');
    const second = repo.commit({ 'config/org.yaml': 'organization: second\n' }, 'second');
    const home = mkdtempSync(join(tmpdir(), 'docsync-home-'));
    writeFileSync(
      join(home, '.gitconfig'),
      '[remote "origin"]\n\tfetch = +refs/tags/*:refs/tags/*\n\ttagOpt = --tags\n[fetch]\n\tpruneTags = false\n',
    );
    vi.stubEnv('HOME', home);
    try {
      const source = new GitSource({ url: repo.url, branch: 'main', path: 'config', workDir: state() });
      expect((await source.refresh()).id).toBe(second);
      const third = repo.commit({ 'config/org.yaml': 'organization: third\n' }, 'third');
      expect((await source.refresh()).id).toBe(third);
      expect(git(join(source.configDir, '..'), 'tag', '--list')).toBe('');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('a branch that exists only as a tag is not found; the tag is never checked out', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: tagged\n' });
    tag(repo, 'v1');
    const source = new GitSource({ url: repo.url, branch: 'v1', path: 'config', workDir: state() });
    await expect(source.refresh()).rejects.toThrow(/^git: .*couldn't find remote ref refs\/heads\/v1/);
    expect(existsSync(source.configDir)).toBe(false);
  });

  it('a branch set to an annotated tag (not a commit) is refused before the working tree changes', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: old\n' });
    const source = new GitSource({ url: repo.url, branch: 'main', path: 'config', workDir: state() });
    const first = await source.refresh();
    const second = repo.commit({ 'config/org.yaml': 'organization: second\n' }, 'second');
    git(
      repo.dir,
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@example.com',
      'tag',
      '-a',
      '-m',
      'v1',
      'v1',
      second,
    );
    // `git update-ref` refuses a tag for a branch; a remote's own files do not.
    // The tag object's id, from the loose ref `git tag` wrote.
    const tagObject = readFileSync(join(repo.dir, '.git', 'refs', 'tags', 'v1'), 'utf8');
    expect(tagObject.trim()).not.toBe(second);
    writeFileSync(join(repo.dir, '.git', 'refs', 'heads', 'main'), tagObject);
    await expect(source.refresh()).rejects.toThrow(/^git: .*(not a commit|could not be verified)/);
    expect(org(source)).toContain('old');
    const checkout = join(source.configDir, '..');
    expect(git(checkout, 'rev-parse', 'HEAD')).toBe(first.id);
  });

  it.each([
    '--upload-pack=touch /tmp/docsync-pwned',
    '-b',
    'main:refs/heads/evil',
    'refs/tags/v1',
    'HEAD',
    'a..b',
    'main@{1}',
    'main~1',
    'a b',
    '.hidden',
    'x.lock',
    'main/',
  ])('refuses the hostile branch name %j before running git', async (branch) => {
    expect(branchNameProblem(branch)).toBeDefined();
    const source = new GitSource({ url: 'file:///nonexistent', branch, path: '.', workDir: state() });
    const error = await source.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as Error).message).toMatch(/^git: --branch ".*" /);
    expect(existsSync('/tmp/docsync-pwned')).toBe(false);
  });

  it('accepts ordinary branch names', () => {
    for (const branch of ['main', 'release/2024-01', 'feature_x', 'v1.2', 'team/docs-sync'])
      expect(branchNameProblem(branch)).toBeUndefined();
  });
});

describe('the maximum checkout size', () => {
  it('refuses a working tree past the bound before writing it (a small pack of zeros), keeping the checkout', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: small\n' });
    const source = new GitSource({
      url: repo.url,
      branch: 'main',
      path: 'config',
      workDir: state(),
      maxCheckoutBytes: 1024 * 1024,
    });
    const first = await source.refresh();
    repo.commit(
      { 'config/org.yaml': 'organization: big\n', 'zeros.bin': '\0'.repeat(2 * 1024 * 1024) },
      'big',
    );
    const error = await source.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutTooLargeError);
    expect((error as CheckoutTooLargeError).code).toBe('checkout-too-large');
    expect((error as Error).message).toMatch(
      /working tree would exceed the maximum checkout size of 1048576 bytes \(--max-checkout-bytes/,
    );
    // Nothing of the big commit was checked out.
    expect(org(source)).toContain('small');
    expect(git(join(source.configDir, '..'), 'rev-parse', 'HEAD')).toBe(first.id);
  });

  it('kills the tree listing as soon as its running total passes the bound', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: small\n' });
    const source = new GitSource({
      url: repo.url,
      branch: 'main',
      path: 'config',
      workDir: state(),
      maxCheckoutBytes: 1024 * 1024,
      timeoutMs: 20_000,
    });
    await source.refresh();
    repo.commit({ 'zeros.bin': '\0'.repeat(2 * 1024 * 1024) }, 'big');
    // A git whose ls-tree, once it listed the tree, goes on as a huge tree's would (30 s more):
    // only a listing killed as soon as the total passes the bound ends before that.
    const realGit = gitOnPath();
    const bin = mkdtempSync(join(tmpdir(), 'docsync-slow-ls-tree-'));
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\n"${realGit}" "$@"; s=$?\ncase " $* " in *" ls-tree "*) sleep 30;; esac\nexit $s\n`,
      { mode: 0o755 },
    );
    const path = process.env['PATH'];
    process.env['PATH'] = `${bin}:${path ?? ''}`;
    try {
      const t0 = performance.now();
      await expect(source.refresh()).rejects.toBeInstanceOf(CheckoutTooLargeError);
      expect(performance.now() - t0).toBeLessThan(10_000);
    } finally {
      process.env['PATH'] = path;
    }
  });

  it('refuses a repository whose objects pass the bound, on a fresh clone', async () => {
    // Random bytes do not compress: 2 MB of base64 is about 1.5 MB of objects, half again the
    // bound (3 MB of noise proved the same for twice git's hashing and compression).
    const repo = makeRepo({
      'config/org.yaml': 'organization: x\n',
      'noise.txt': randomBytes(1.5 * 1024 * 1024).toString('base64'),
    });
    const source = new GitSource({
      url: repo.url,
      branch: 'main',
      path: 'config',
      workDir: state(),
      maxCheckoutBytes: 1024 * 1024,
    });
    await expect(source.refresh()).rejects.toThrow(/objects would exceed the maximum checkout size/);
    expect(existsSync(source.configDir)).toBe(false);
  });
});
