import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.js';
import { jsonBytes } from './json-bytes.js';

const MAX_BODY = 1024 * 1024;

/** An answer made and not written yet: its status and its body's bytes, when it has one. */
export type Answer = { status: number; bytes: Buffer | undefined };

/** The answer `send` writes, made now (the body encoded once: its length and its bytes from one buffer). */
export function answerOf(status: number, body?: unknown): Answer {
  return { status, bytes: body === undefined ? undefined : jsonBytes(body) };
}

/** The answer `sendError` writes. */
export function errorAnswer(status: number, message: string): Answer {
  return answerOf(status, { error: { code: status, message } });
}

export function write(res: ServerResponse, { status, bytes }: Answer): void {
  if (bytes === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
  });
  res.end(bytes);
}

export function send(res: ServerResponse, status: number, body?: unknown): void {
  write(res, answerOf(status, body));
}

export function sendError(res: ServerResponse, status: number, message: string): void {
  write(res, errorAnswer(status, message));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, 'request body too large'));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Whether the request has a body to read (RFC 9112 6.3: a length or a transfer coding). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}
