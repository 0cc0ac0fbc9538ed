import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { baseSeed, TOKEN, withEmulator } from '../helpers/emulator.js';
import { TEST_PEM } from '../helpers/certificates.js';
import { runMain } from '../helpers/cli.js';

let emu: Emulator;
beforeEach(async () => {
  emu = await withEmulator({ seed: baseSeed() });
});
afterEach(async () => emu.close());

it('apply refuses indirect values that would send host secrets, before any network call', async () => {
  const base = mkdtempSync(join(tmpdir(), 'docsync-hostile-'));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'config'));
  writeFileSync(join(base, 'host-secret.txt'), 'HOST-FILE-SECRET-3141\n');
  writeFileSync(
    join(repo, 'config', 'org.yaml'),
    [
      'organization: org_t',
      'saml:',
      '  - label: Token',
      '    certificate: { env: DOCSYNC_TOKEN }',
      '  - label: File',
      '    certificate: { file: ../../host-secret.txt }',
      '',
    ].join('\n'),
  );
  const result = await runMain(['apply', '--yes', '--config', join(repo, 'config')], {
    DOCSYNC_API_URL: emu.url,
    DOCSYNC_TOKEN: TOKEN,
    DOCSYNC_STATE_DIR: join(base, 'state'),
    DOCSYNC_LOG_LEVEL: 'warn',
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/org\.yaml:4:\d+: error\[indirect-env-not-allowed\] saml\[0\]\.certificate/);
  expect(result.stderr).toMatch(/org\.yaml:6:\d+: error\[indirect-outside-root\] saml\[1\]\.certificate/);
  expect(emu.requests()).toEqual([]);
  const everything = result.stdout + result.stderr + JSON.stringify(emu.state());
  expect(everything).not.toContain(TOKEN);
  expect(everything).not.toContain('HOST-FILE-SECRET-3141');
});

it('validate refuses VCS metadata, links and non-certificates as certificates, located, without printing them', async () => {
  const base = mkdtempSync(join(tmpdir(), 'docsync-hostile-vcs-'));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, 'config'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('remote', 'add', 'origin', 'https://deploy:GIT-CREDENTIAL-2718@host/repo.git');
  writeFileSync(join(repo, '.git', 'packed-refs'), '# pack-refs with: peeled\n');
  writeFileSync(
    join(repo, '.git', 'FETCH_HEAD'),
    '0000 branch main of https://deploy:GIT-CREDENTIAL-2718@host\n',
  );
  writeFileSync(join(repo, 'config', 'okta.pem'), TEST_PEM);
  symlinkSync(join(repo, 'config', 'okta.pem'), join(repo, 'config', 'link.pem'));
  writeFileSync(join(repo, 'config', 'notes.pem'), 'NOT-A-CERTIFICATE-1618\n');
  const entries = [
    '../.git/config',
    '../.git/hooks/pre-commit.sample',
    '../.git/packed-refs',
    '../.git/FETCH_HEAD',
    'link.pem',
    'notes.pem',
    'okta.pem',
  ];
  writeFileSync(
    join(repo, 'config', 'org.yaml'),
    [
      'organization: org_t',
      'saml:',
      ...entries.flatMap((file, i) => [`  - label: P${i}`, `    certificate: { file: ${file} }`]),
      '',
    ].join('\n'),
  );
  const result = await runMain(['validate', '--config', join(repo, 'config')], {
    DOCSYNC_STATE_DIR: join(base, 'state'),
    DOCSYNC_LOG_LEVEL: 'warn',
  });
  expect(result.code).toBe(1);
  const line = (i: number) => 4 + 2 * i;
  for (const i of [0, 1, 2, 3])
    expect(result.stderr + result.stdout).toMatch(
      new RegExp(`org\\.yaml:${line(i)}:20: error\\[indirect-vcs-metadata\\] saml\\[${i}\\]\\.certificate`),
    );
  expect(result.stderr + result.stdout).toMatch(/org\.yaml:12:20: error\[indirect-symlink\] saml\[4\]/);
  expect(result.stderr + result.stdout).toMatch(
    /org\.yaml:14:20: error\[indirect-invalid-content\] saml\[5\]/,
  );
  expect(result.stderr + result.stdout).not.toMatch(/saml\[6\]/);
  const everything = result.stdout + result.stderr;
  expect(everything).not.toContain('GIT-CREDENTIAL-2718');
  expect(everything).not.toContain('NOT-A-CERTIFICATE-1618');
  rmSync(base, { recursive: true, force: true });
});
