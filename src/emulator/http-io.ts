import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.js';
import { jsonBytes } from './json-bytes.js';

const MAX_BODY = 1024 * 1024;

export function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  // Encoded once: the length and the bytes sent come from the same buffer.
  const bytes = jsonBytes(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
  });
  res.end(bytes);
}

export function sendError(res: ServerResponse, status: number, message: string): void {
  send(res, status, { error: { code: status, message } });
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
