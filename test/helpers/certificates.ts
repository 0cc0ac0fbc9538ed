import { readFileSync } from 'node:fs';

/**
 * Real, self-signed PEM certificates (generated once with openssl, valid until 2126) for every
 * test that reads or sends a SAML certificate: indirect values must parse as certificates.
 */
export const TEST_PEM = readFileSync(new URL('../fixtures/certs/test-cert.pem', import.meta.url), 'utf8');
export const TEST_PEM_2 = readFileSync(new URL('../fixtures/certs/test-cert-2.pem', import.meta.url), 'utf8');
