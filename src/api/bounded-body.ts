import type { Dispatcher } from 'undici';
import { DocsyncError } from '../errors.js';

/** The answer was larger than the client accepts. */
export class AnswerTooLargeError extends DocsyncError<'answer-too-large'> {
  constructor(readonly maxBytes: number) {
    super('answer-too-large', `the answer is larger than ${maxBytes} bytes (--max-response-bytes)`);
    this.name = 'AnswerTooLargeError';
  }
}

/** The attempt's total deadline (headers and body together) passed. */
export class DeadlineError extends DocsyncError<'deadline'> {
  constructor(readonly timeoutMs: number) {
    super('deadline', `no complete answer within ${timeoutMs} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * A total deadline for one attempt: unlike undici's header and body timeouts, which restart on
 * every byte, it covers the whole exchange, so a server that trickles one byte at a time still
 * times out.
 */
export function attemptDeadline(timeoutMs: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineError(timeoutMs)), timeoutMs);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * Read an answer's body as text, refusing (and dropping the connection) past `maxBytes` (see
 * `readBoundedBytes`).
 */
export async function readBoundedText(res: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  return (await readBoundedBytes(res, maxBytes)).toString('utf8');
}

/**
 * Read an answer's body, refusing (and dropping the connection) past `maxBytes`. Plain `data`
 * listeners, not `for await` (an async iterator costs promises per chunk), and no copy when the
 * answer came in one chunk.
 */
function readBoundedBytes(res: Dispatcher.ResponseData, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  const body = res.body;
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    return Promise.reject(new AnswerTooLargeError(maxBytes));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        body.destroy();
        reject(new AnswerTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    body.once('error', reject);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
  });
}
