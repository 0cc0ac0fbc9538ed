import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRepositoryRoot, readIndirect, readIndirectSync, type IndirectContext } from './indirect.js';
import { redact } from './registry.js';
import { pemCertificateProblem } from '../model/certificate.js';

const PEM = readFileSync(new URL('../../test/fixtures/certs/test-cert.pem', import.meta.url), 'utf8');
const CREDENTIAL = 'deploy:GIT-CREDENTIAL-7351';

const base = mkdtempSync(join(tmpdir(), 'docsync-indirect-'));
const root = join(base, 'repo');
mkdirSync(join(root, '.git'), { recursive: true });
mkdirSync(join(root, 'config', 'certs'), { recursive: true });
writeFileSync(join(root, 'config', 'certs', 'ok.pem'), 'CERT-CONTENT-inside-0001\n');
writeFileSync(join(base, 'outside.pem'), 'HOST-SECRET-outside\n');
symlinkSync(join(base, 'outside.pem'), join(root, 'config', 'link.pem'));
symlinkSync('/dev/zero', join(root, 'config', 'zero.pem'));
writeFileSync(join(root, 'config', 'big.pem'), 'x'.repeat(10_001));
execFileSync('mkfifo', [join(root, 'config', 'fifo.pem')]);
// VCS metadata holding a credential, hooks and refs; a link inside the repository; content.
mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
writeFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = https://${CREDENTIAL}@host/r.git\n`);
writeFileSync(join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
writeFileSync(join(root, '.git', 'packed-refs'), '# pack-refs\n');
writeFileSync(join(root, '.git', 'FETCH_HEAD'), 'abc\n');
mkdirSync(join(root, 'config', 'vendor', '.hg'), { recursive: true });
writeFileSync(join(root, 'config', 'vendor', '.hg', 'hgrc'), '[paths]\n');
mkdirSync(join(root, 'config', 'sub'), { recursive: true });
writeFileSync(join(root, 'config', 'sub', '.git'), 'gitdir: /elsewhere\n');
mkdirSync(join(root, 'config', 'old', '.SVN'), { recursive: true });
writeFileSync(join(root, 'config', 'old', '.SVN', 'entries'), 'x\n');
writeFileSync(join(root, 'config', 'certs', 'real.pem'), PEM);
symlinkSync(join(root, 'config', 'certs', 'real.pem'), join(root, 'config', 'inside-link.pem'));
symlinkSync(join(root, 'config', 'certs'), join(root, 'config', 'linked-dir'));
symlinkSync(join(root, '.git', 'config'), join(root, 'config', 'git-link.pem'));
writeFileSync(join(root, 'config', 'certs', 'junk.pem'), `${PEM}${CREDENTIAL}\n`);
writeFileSync(
  join(root, 'config', 'certs', 'fake.pem'),
  '-----BEGIN CERTIFICATE-----\nMIIBnotreally\n-----END CERTIFICATE-----\n',
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const ctx = (over: Partial<IndirectContext> = {}): IndirectContext => ({
  baseDir: join(root, 'config'),
  root,
  env: {},
  maxChars: 10_000,
  ...over,
});

/** Both readers must agree: the async one (loadConfig, apply) and the sync one (buffers). */
async function both(source: { file: string } | { env: string }, c = ctx()): Promise<string> {
  let asyncOutcome: string;
  try {
    asyncOutcome = (await readIndirect(source, c)).value;
  } catch (error) {
    asyncOutcome = `error:${(error as { code: string }).code}`;
  }
  let syncOutcome: string;
  try {
    syncOutcome = readIndirectSync(source, c).value;
  } catch (error) {
    syncOutcome = `error:${(error as { code: string }).code}`;
  }
  expect(syncOutcome).toBe(asyncOutcome);
  return asyncOutcome;
}

describe('indirect values are confined', () => {
  it('reads a regular file inside the repository and registers it as a secret', async () => {
    expect(await both({ file: 'certs/ok.pem' })).toBe('CERT-CONTENT-inside-0001\n');
    expect(redact('echo CERT-CONTENT-inside-0001')).toBe('echo [redacted]');
  });
  it('refuses a path that climbs out of the repository', async () => {
    expect(await both({ file: '../../outside.pem' })).toBe('error:outside-root');
    expect(await both({ file: join(base, 'outside.pem') })).toBe('error:outside-root');
    expect(await both({ file: '/etc/passwd' })).toBe('error:outside-root');
  });
  it('refuses a symlink inside the repository that points out of it', async () => {
    expect(await both({ file: 'link.pem' })).toBe('error:outside-root');
    expect(await both({ file: 'zero.pem' })).toBe('error:outside-root');
  });
  it('refuses a FIFO without blocking the event loop', async () => {
    // Opening a FIFO that has no writer blocks forever (the sync reader would hang this test):
    // the type is checked before opening, and the open itself is non-blocking.
    expect(await both({ file: 'fifo.pem' })).toBe('error:not-regular-file');
  });
  it('refuses a device even when it lies inside the root', async () => {
    expect(await both({ file: '/dev/zero' }, ctx({ root: '/' }))).toBe('error:not-regular-file');
  });
  it('refuses a file over the field limit', async () => {
    expect(await both({ file: 'big.pem' })).toBe('error:too-large');
    expect(await both({ file: 'big.pem' }, ctx({ maxChars: 20_000 }))).toBe('x'.repeat(10_001));
  });
  it('reads only variables named DOCSYNC_SECRET_*', async () => {
    const env = {
      DOCSYNC_TOKEN: 'the-api-token-value',
      DOCSYNC_WEBHOOK_SECRET: 'the-webhook-secret',
      HOME: '/root',
      DOCSYNC_SECRET_OKTA: 'PEM-FROM-ENV-0002',
    };
    for (const name of ['DOCSYNC_TOKEN', 'DOCSYNC_WEBHOOK_SECRET', 'HOME', 'DOCSYNC_SECRET_'])
      expect(await both({ env: name }, ctx({ env }))).toBe('error:env-not-allowed');
    expect(await both({ env: 'DOCSYNC_SECRET_MISSING' }, ctx({ env }))).toBe('error:env-unset');
    expect(await both({ env: 'DOCSYNC_SECRET_OKTA' }, ctx({ env }))).toBe('PEM-FROM-ENV-0002');
    expect(redact('x PEM-FROM-ENV-0002 y')).toBe('x [redacted] y');
  });
  it('finds the repository root above the config folder', () => {
    expect(findRepositoryRoot(join(root, 'config', 'certs'))).toBe(root);
    expect(findRepositoryRoot(join(base))).toBe(base);
  });
});

describe('indirect values never come from VCS metadata, links or the wrong content', () => {
  it('refuses anything under .git (config with a credential, hooks, packed-refs, FETCH_HEAD)', async () => {
    for (const file of [
      '../.git/config',
      '../.git/hooks/pre-commit',
      '../.git/packed-refs',
      '../.git/FETCH_HEAD',
    ])
      expect(await both({ file })).toBe('error:vcs-metadata');
    expect(await both({ file: join(root, '.git', 'config') })).toBe('error:vcs-metadata');
    expect(redact(`x ${CREDENTIAL} y`)).toContain(CREDENTIAL);
  });
  it('refuses other VCS folders, a .git file and any case', async () => {
    expect(await both({ file: 'vendor/.hg/hgrc' })).toBe('error:vcs-metadata');
    expect(await both({ file: 'sub/.git' })).toBe('error:vcs-metadata');
    expect(await both({ file: 'old/.SVN/entries' })).toBe('error:vcs-metadata');
    expect(await both({ file: 'certs/../../.GIT/config' })).toBe('error:vcs-metadata');
  });
  it('refuses a symlink even when it points inside the repository', async () => {
    expect(await both({ file: 'certs/real.pem' })).toBe(PEM);
    expect(await both({ file: 'inside-link.pem' })).toBe('error:symlink');
    expect(await both({ file: 'linked-dir/real.pem' })).toBe('error:symlink');
    expect(await both({ file: 'git-link.pem' })).toBe('error:symlink');
  });
  it('accepts the repository itself reached under another name (a link above it, like /tmp on macOS)', async () => {
    symlinkSync(root, join(base, 'alias'));
    expect(await both({ file: 'certs/real.pem' }, ctx({ baseDir: join(base, 'alias', 'config') }))).toBe(PEM);
    expect(await both({ file: join(base, 'alias', 'config', 'certs', 'real.pem') })).toBe(PEM);
    expect(await both({ file: join(base, 'alias', '.git', 'config') })).toBe('error:vcs-metadata');
    expect(await both({ file: join(base, 'alias', 'config', 'inside-link.pem') })).toBe('error:symlink');
  });
  it('follows links for an operator path (Kubernetes mounts secrets through them)', async () => {
    expect(await both({ file: 'inside-link.pem' }, ctx({ operatorPath: true }))).toBe(PEM);
  });
  it('checks the content: only parsable PEM certificates, never quoted in the error', async () => {
    const c = ctx({ content: pemCertificateProblem });
    expect(await both({ file: 'certs/real.pem' }, c)).toBe(PEM);
    for (const file of ['certs/junk.pem', 'certs/fake.pem', 'certs/ok.pem'])
      expect(await both({ file }, c)).toBe('error:invalid-content');
    const env = { DOCSYNC_SECRET_NOT_PEM: 'just-a-token-value-9' };
    expect(await both({ env: 'DOCSYNC_SECRET_NOT_PEM' }, ctx({ env, content: pemCertificateProblem }))).toBe(
      'error:invalid-content',
    );
    await expect(readIndirect({ file: 'certs/junk.pem' }, c)).rejects.toThrow(/not a PEM certificate/);
    await expect(readIndirect({ file: 'certs/junk.pem' }, c)).rejects.not.toThrow(CREDENTIAL);
  });
});
