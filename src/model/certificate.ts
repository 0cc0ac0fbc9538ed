import { createHash } from 'node:crypto';

/** Limit of a certificate, in characters (the API's). */
export const CERTIFICATE_MAX = 10_000;

/** The hash certificates are compared by (whitespace at the ends does not count). */
export function certificateHash(content: string): string {
  return createHash('sha256').update(content.trim()).digest('hex');
}
