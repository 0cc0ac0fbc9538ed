import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import type { HttpOptions } from './http-options.js';
import { listAll } from './paginate.js';
import { clientOf } from '../../test/helpers/http-client.js';

const TOKEN = 'bounds-token-0123456789';

/** A raw server on port 0 and a client for it (one attempt, so a failure surfaces at once). */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: Partial<HttpOptions> = {},
): Promise<HttpClient> {
  return clientOf(createServer(handler), { token: TOKEN, maxAttempts: 1, ...options });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as Error).message).not.toContain(TOKEN);
  return error as ApiError;
}

const get = { method: 'GET', path: '/orgs/o/teams', route: '/orgs/{org}/teams', expect: [200] } as const;

describe('every API exchange is bounded', () => {
  it('a server that trickles its body one byte at a time hits the total deadline', async () => {
    const client = await serve(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        // A byte every 200 ms restarts undici's body timeout every time; the deadline does not restart.
        const timer = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(timer));
      },
      { timeoutMs: 1_000 },
    );
    const error = await failure(client.send(get));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^GET \/orgs\/\{org\}\/teams failed \(timeout\)/);
  });

  it('an answer over the size limit is refused, with or without a content-length', async () => {
    const big = `{"items":["${'x'.repeat(3 * 1024 * 1024)}"]}`;
    for (const declared of [true, false]) {
      const client = await serve(
        (_req, res) => {
          res.writeHead(200, {
            'content-type': 'application/json',
            ...(declared ? { 'content-length': String(Buffer.byteLength(big)) } : {}),
          });
          res.end(big);
        },
        { maxResponseBytes: 1024 * 1024 },
      );
      const error = await failure(client.send(get));
      expect(error.code).toBe('invalid-response');
      expect(error.message).toMatch(/GET \/orgs\/\{org\}\/teams .*larger than 1048576 bytes/);
    }
  });

  it('a list that hands out fresh next.page tokens forever stops at the page limit', async () => {
    let requests = 0;
    const client = await serve(
      (_req, res) => {
        requests += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ items: [{ id: `t${requests}` }], next: { page: `p${requests}` } }));
      },
      { maxPages: 40 },
    );
    const error = await failure(
      listAll(client, '/orgs/o/teams', '/orgs/{org}/teams', z.object({ id: z.string() })),
    );
    expect(error.message).toMatch(/GET \/orgs\/\{org\}\/teams .*more than 40 pages/);
    expect(requests).toBe(40);
  });

  it('empty pages that keep pointing onward stop at once', async () => {
    let requests = 0;
    const client = await serve((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [], next: { page: `p${requests}` } }));
    });
    const error = await failure(
      listAll(client, '/orgs/o/teams', '/orgs/{org}/teams', z.object({ id: z.string() })),
    );
    expect(error.message).toMatch(/empty pages in a row/);
    expect(requests).toBe(3);
  });
});
