import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { HttpClient } from '../../src/api/http.js';
import type { HttpOptions } from '../../src/api/http-options.js';
import { Agent } from '../../src/api/undici.js';

/**
 * An `HttpClient` of `server`, which starts listening on a free port of 127.0.0.1; the server
 * (its connections too) and the client are closed when the test ends.
 */
export async function clientOf(
  server: Server,
  options: Partial<HttpOptions> & { token: string },
): Promise<HttpClient> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new HttpClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    userAgent: 'test',
    ...options,
  });
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await client.close();
  });
  return client;
}

/**
 * A server of `handler` on a free port of 127.0.0.1, an undici agent, and a GET of its `/x` as an
 * exchange sends it; the server (its connections too) and the agent are closed when the test ends.
 */
export async function serveOne(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent();
  onTestFinished(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { agent, req: { origin, path: '/x', method: 'GET' as const, headers: {}, body: undefined } };
}
