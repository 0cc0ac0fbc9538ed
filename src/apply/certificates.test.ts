import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { certificateHash } from '../model/certificate.js';
import type { Change } from '../model/index.js';
import type { CertificateRef } from '../model/desired.js';
import { preloadCertificates, readCertificateSource } from './certificates.js';

it('re-checks confinement at apply: a certificate swapped for a symlink out of the repository fails', async () => {
  const base = mkdtempSync(join(tmpdir(), 'docsync-cert-apply-'));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const pem = '-----BEGIN CERTIFICATE-----\nAPPLYTIME\n-----END CERTIFICATE-----\n';
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

  rmSync(file);
  writeFileSync(file, pem.replace('APPLYTIME', 'CHANGED'));
  await preloadCertificates([change], repo);
  expect(() => readCertificateSource(source)).toThrow(/changed since the plan was made/);
  rmSync(base, { recursive: true, force: true });
});
