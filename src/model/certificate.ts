import { createHash } from 'node:crypto';

/** The hash certificates are compared by (whitespace at the ends does not count). */
export function certificateHash(content: string): string {
  return createHash('sha256').update(content.trim()).digest('hex');
}
