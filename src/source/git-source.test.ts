import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gitOnPath, makeRepo } from '../../test/helpers/git.js';
import { GIT_LIMITS, gitEnv } from './git-process.js';
import { checkoutKey, GitSource } from './git-source.js';

/**
 * The git commands the product starts from now on (a `git` first on PATH that logs its command and
 * runs the real one), until the returned function is called: their names, in order.
 */
function gitCommands(): () => string[] {
  const bin = mkdtempSync(join(tmpdir(), 'docsync-git-bin-'));
  const log = join(bin, 'log');
  const real = gitOnPath();
  writeFileSync(log, '');
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh\nfor a; do case "$a" in -*|*=*) ;; *) echo "$a" >> '${log}'; break;; esac; done\nexec '${real}' "$@"\n`,
    { mode: 0o755 },
  );
  vi.stubEnv('PATH', `${bin}:${process.env['PATH'] ?? ''}`);
  return () => {
    vi.unstubAllEnvs();
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  };
}

/**
 * Repositories A and B, made once for the tests that only read them (each test has its own state
 * folder): two repositories instead of five.
 */
const readOnly = (() => {
  let made: { a: { url: string }; b: { url: string } } | undefined;
  return () =>
    (made ??= {
      a: makeRepo({ 'config/org.yaml': 'organization: org_a\n' }),
      b: makeRepo({ 'config/org.yaml': 'organization: org_b\n' }),
    });
})();

const source = (url: string, workDir: string) =>
  new GitSource({ url, branch: 'main', path: 'config', workDir });

// A test that failed between `gitCommands()` and its reading leaves no logging git on PATH.
afterEach(() => vi.unstubAllEnvs());

describe('git source', () => {
  it('keys the checkout by repository and branch: repo A then repo B on the same state folder reads B', async () => {
    const { a, b } = readOnly();
    const workDir = mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
    const fromA = source(a.url, workDir);
    await fromA.refresh();
    expect(readFileSync(join(fromA.configDir, 'org.yaml'), 'utf8')).toContain('org_a');
    const fromB = source(b.url, workDir);
    await fromB.refresh();
    expect(fromB.configDir).not.toBe(fromA.configDir);
    expect(readFileSync(join(fromB.configDir, 'org.yaml'), 'utf8')).toContain('org_b');
  });

  it("verifies a checkout before use: another repository's files in its place are cloned over", async () => {
    const { a, b } = readOnly();
    const workDir = mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
    await source(a.url, workDir).refresh();
    cpSync(join(workDir, checkoutKey(a.url, 'main')), join(workDir, checkoutKey(b.url, 'main')), {
      recursive: true,
    });
    const fromB = source(b.url, workDir);
    await fromB.refresh();
    expect(readFileSync(join(fromB.configDir, 'org.yaml'), 'utf8')).toContain('org_b');
  });

  it('a source that cannot be fetched fails; it never falls back to a checkout of another source', async () => {
    const { a } = readOnly();
    const workDir = mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
    await source(a.url, workDir).refresh();
    const missing = source(`file://${join(workDir, 'no-such-repo')}`, workDir);
    await expect(missing.refresh()).rejects.toThrow(/^git: /);
    expect(existsSync(missing.configDir)).toBe(false);
  });

  it('an unchanged branch is not fetched again: one ls-remote, the same revision; a new commit is fetched', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: org_a\n' });
    const workDir = mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
    const src = source(repo.url, workDir);
    const first = await src.refresh();
    const fetchHead = join(workDir, checkoutKey(repo.url, 'main'), '.git', 'FETCH_HEAD');
    const index = join(workDir, checkoutKey(repo.url, 'main'), '.git', 'index');
    // Back-dated, so that a fetch or a checkout (which rewrite them) would show in the times.
    const past = Math.floor(Date.now() / 1000) - 60;
    for (const f of [fetchHead, index]) utimesSync(f, past, past);
    // The poll right after the clone: the checkout it has just set up is not read again (no
    // `git config`), only the remote is asked where the branch is.
    const commands = gitCommands();
    const again = await src.refresh();
    expect(commands()).toEqual(['ls-remote']);
    expect(again).toEqual(first);
    expect(statSync(fetchHead).mtimeMs / 1000).toBe(past);
    expect(statSync(index).mtimeMs / 1000).toBe(past);
    const second = repo.commit({ 'config/org.yaml': 'organization: org_b\n' }, 'second');
    const polled = gitCommands();
    expect((await src.refresh()).id).toBe(second);
    // A new commit: asked, fetched, sized, checked to be a commit, checked out (no process to read
    // the refs the fetch and the reset wrote).
    expect(polled()).toEqual(['ls-remote', 'fetch', 'ls-tree', 'log', 'reset', 'clean']);
    expect(readFileSync(join(src.configDir, 'org.yaml'), 'utf8')).toContain('org_b');
    expect(statSync(fetchHead).mtimeMs / 1000).toBeGreaterThan(past);
    // The checkout's remote pointed elsewhere between two polls: verified again, cloned over.
    const other = makeRepo({ 'config/org.yaml': 'organization: org_other\n' });
    const checkout = join(workDir, checkoutKey(repo.url, 'main'));
    execFileSync('git', ['config', 'remote.origin.url', other.url], { cwd: checkout });
    expect((await src.refresh()).id).toBe(second);
    expect(readFileSync(join(src.configDir, 'org.yaml'), 'utf8')).toContain('org_b');
    expect(execFileSync('git', ['config', 'remote.origin.url'], { cwd: checkout, encoding: 'utf8' })).toBe(
      `${repo.url}\n`,
    );
    // A fresh source (a restarted daemon) fetches and checks out, whatever the checkout holds.
    const restarted = source(repo.url, workDir);
    expect((await restarted.refresh()).id).toBe(second);
  });

  it('a clone writes its remote in git config syntax: a URL and branch with quotes, backslashes, # and ; read back as given', async () => {
    const repo = makeRepo({ 'config/org.yaml': 'organization: org_odd\n' });
    // A local path (git reads it as given) and a branch name git allows, each with what git's
    // config syntax would otherwise read as a comment, a quote or an escape.
    const odd = join(mkdtempSync(join(tmpdir(), 'docsync-git-odd-')), 'we"ird \\ #dir; x');
    cpSync(repo.dir, odd, { recursive: true });
    const branch = 'a#b;"c\'d';
    writeFileSync(join(odd, '.git', 'refs', 'heads', branch), `${repo.head}\n`);
    const workDir = mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
    const opts = { url: odd, branch, path: 'config', workDir };
    expect((await new GitSource(opts).refresh()).id).toBe(repo.head);
    const checkout = join(workDir, checkoutKey(odd, branch));
    const config = (key: string) =>
      execFileSync('git', ['config', '--local', key], { cwd: checkout, encoding: 'utf8' });
    expect(config('remote.origin.url')).toBe(`${odd}\n`);
    expect(config('remote.origin.fetch')).toBe(`+refs/heads/${branch}:refs/remotes/origin/${branch}\n`);
    // A restarted source verifies the checkout (`git config`) and keeps it: no new `git init`.
    const commands = gitCommands();
    const restarted = new GitSource(opts);
    expect((await restarted.refresh()).id).toBe(repo.head);
    expect(commands()).toEqual(['config', 'fetch', 'ls-tree', 'log', 'reset', 'clean']);
    expect(readFileSync(join(restarted.configDir, 'org.yaml'), 'utf8')).toContain('org_odd');
  });

  it("keeps connect and low-speed limits in git's environment (the operator's own values win)", () => {
    const env = gitEnv({ PATH: '/bin', GIT_HTTP_LOW_SPEED_TIME: '5', GIT_ASKPASS: '/evil', EDITOR: 'vim' });
    expect(env).toMatchObject({
      GIT_HTTP_LOW_SPEED_LIMIT: GIT_LIMITS.GIT_HTTP_LOW_SPEED_LIMIT,
      GIT_HTTP_LOW_SPEED_TIME: '5',
    });
    expect(env['GIT_SSH_COMMAND']).toMatch(/ConnectTimeout=\d+/);
    expect(env).not.toHaveProperty('GIT_ASKPASS');
    expect(env).not.toHaveProperty('EDITOR');
  });

  it('stop() kills a git fetch that hangs on a server that accepts and never answers', async () => {
    const sockets: Socket[] = [];
    const server = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const workDir = mkdtempSync(join(tmpdir(), 'docsync-git-state-'));
    const hanging = source(`http://127.0.0.1:${port}/config.git`, workDir);
    const refresh = hanging.refresh().then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    for (let i = 0; i < 300 && sockets.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(sockets.length).toBeGreaterThan(0);
    await hanging.stop();
    expect(await refresh).toMatch(/git fetch stopped/);
    for (const s of sockets) s.destroy();
    server.close();
  });
});
