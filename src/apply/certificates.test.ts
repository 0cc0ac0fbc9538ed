import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TEST_PEM, TEST_PEM_2 } from '../../test/helpers/certificates.js';
import { certificateHash } from '../model/certificate.js';
import type { Change } from '../reconcile/index.js';
import type { CertificateRef } from '../model/desired.js';
import { preloadCertificates, readCertificateSource } from './certificates.js';

it('re-checks confinement at apply: a certificate swapped for a symlink out of the repository fails', async () => {
  const base = mkdtempSync(join(tmpdir(), 'docsync-cert-apply-'));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const pem = TEST_PEM;
  const file = join(repo, 'okta.pem');
  writeFileSync(file, pem);
  const source: CertificateRef = { source: 'file', path: file, sha256: certificateHash(pem) };
  const change = {
    op: { type: 'create-saml', body: { certificate: { $certificate: source } } },
  } as unknown as Change;

  await preloadCertificates([change], repo);
  expect(readCertificateSource(source)).toBe(pem.trim());

  // Same content (same hash), but now outside the repository: refused all the same.
  writeFileSync(join(base, 'elsewhere.pem'), pem);
  rmSync(file);
  symlinkSync(join(base, 'elsewhere.pem'), file);
  await preloadCertificates([change], repo);
  expect(() => readCertificateSource(source)).toThrow(/outside the config repository/);

  // A link inside the repository, to a copy inside it: refused too (no link, ever).
  rmSync(file);
  writeFileSync(join(repo, 'copy.pem'), pem);
  symlinkSync(join(repo, 'copy.pem'), file);
  await preloadCertificates([change], repo);
  expect(() => readCertificateSource(source)).toThrow(/symbolic link/);

  rmSync(file);
  writeFileSync(file, TEST_PEM_2);
  await preloadCertificates([change], repo);
  expect(() => readCertificateSource(source)).toThrow(/changed since the plan was made/);
  rmSync(base, { recursive: true, force: true });
});
