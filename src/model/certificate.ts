import { createHash, X509Certificate } from 'node:crypto';

/** Limit of a certificate, in characters (the API's). */
export const CERTIFICATE_MAX = 10_000;

/** The hash certificates are compared by (whitespace at the ends does not count). */
export function certificateHash(content: string): string {
  return createHash('sha256').update(content.trim()).digest('hex');
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END CERTIFICATE-----/g;

/**
 * Why a text is not one or more PEM certificates (undefined when it is). Nothing but certificate
 * blocks may be there, and each must parse as an X.509 certificate: a file that is anything else
 * (a repository's config, a key, a token) is refused without ever being quoted.
 */
export function pemCertificateProblem(text: string): string | undefined {
  const trimmed = text.trim();
  const blocks = trimmed.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0 || trimmed.replace(PEM_BLOCK, '').trim() !== '')
    return 'is not a PEM certificate (only -----BEGIN CERTIFICATE----- blocks are allowed)';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      return 'holds a PEM block that does not parse as an X.509 certificate';
    }
  }
  return undefined;
}
