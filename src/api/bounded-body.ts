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

/** Read an answer's body as text, refusing (and dropping the connection) past `maxBytes`. */
export async function readBoundedText(res: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw new AnswerTooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.body.destroy();
      throw new AnswerTooLargeError(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
