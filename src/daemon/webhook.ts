import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DocsyncError } from '../errors.js';

export const WEBHOOK_MAX_BYTES = 1024 * 1024;

/** GitHub's `X-Hub-Signature-256`: `sha256=` + hex HMAC of the raw body. Constant-time compare. */
export function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !header.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function sign(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export class BodyError extends DocsyncError<'body-timeout' | 'body-too-large'> {
  constructor(
    readonly status: 408 | 413,
    message: string,
  ) {
    super(status === 408 ? 'body-timeout' : 'body-too-large', message);
  }
}

/** Read a request body with a size cap and a deadline (a slow body is cut off). */
export function readLimitedBody(
  req: IncomingMessage,
  maxBytes = WEBHOOK_MAX_BYTES,
  timeoutMs = 10_000,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      reject(new BodyError(413, 'body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => reject(new BodyError(408, 'body not received in time')), timeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        clearTimeout(timer);
        reject(new BodyError(413, 'body too large'));
        req.pause();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
