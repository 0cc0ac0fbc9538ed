import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fault the mock plays for the next request instead of answering it: a status with a body, or
 * headers followed by a body trickled one byte every `trickleMs`.
 */
export type GitHubFault = { status: number; body?: unknown } | { trickleMs: number };

/**
 * A local stand-in for the GitHub REST calls docsync uses: who the token is, list, create and
 * update issue comments, create commit statuses. Without `login` the token is an Actions token: `GET /user` answers 403 and
 * comments are written by `github-actions[bot]`; with it, a personal token of that user.
 */
export async function githubMock(token: string, options: { login?: string } = {}) {
  const author = options.login ?? 'github-actions[bot]';
  const faults: GitHubFault[] = [];
  const comments: { id: number; body: string; user: { login: string } }[] = [
    { id: 1, body: 'LGTM from a human', user: { login: 'alice' } },
  ];
  const calls: string[] = [];
  /** Commit statuses created (`POST /repos/{repo}/statuses/{sha}`), in order. */
  const statuses: { repo: string; sha: string; state: string; description?: string; context?: string }[] = [];
  let next = 100;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push(`${req.method} ${url.pathname}`);
      const fault = faults.shift();
      if (fault && 'trickleMs' in fault) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), fault.trickleMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (fault) {
        res.writeHead(fault.status, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(fault.body ?? { message: 'fault' }));
      }
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials' });
      if (url.pathname === '/user' && req.method === 'GET')
        return options.login
          ? send(200, { login: options.login, type: 'User' })
          : send(403, { message: 'Resource not accessible by integration' });
      let m = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
      if (m && req.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, comments.slice((page - 1) * perPage, page * perPage));
      }
      if (m && req.method === 'POST') {
        const body = JSON.parse(raw).body as string;
        if (body.length > 65_536)
          return send(422, { message: 'body is too long (maximum is 65536 characters)' });
        const c = { id: (next += 1), body, user: { login: author } };
        comments.push(c);
        return send(201, c);
      }
      m = /^\/repos\/([^/]+\/[^/]+)\/statuses\/([0-9a-f]{40})$/.exec(url.pathname);
      if (m && req.method === 'POST') {
        const body = JSON.parse(raw) as { state: string; description?: string; context?: string };
        if (!['error', 'failure', 'pending', 'success'].includes(body.state))
          return send(422, { message: 'Validation Failed' });
        if ((body.description?.length ?? 0) > 140) return send(422, { message: 'description is too long' });
        statuses.push({ repo: m[1]!, sha: m[2]!, ...body });
        return send(201, { id: (next += 1), ...body });
      }
      m = /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (m && req.method === 'PATCH') {
        const c = comments.find((x) => x.id === Number(m![2]));
        if (!c) return send(404, { message: 'Not Found' });
        const body = JSON.parse(raw).body as string;
        if (body.length > 65_536) return send(422, { message: 'body is too long' });
        c.body = body;
        return send(200, c);
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    comments,
    statuses,
    calls,
    faults,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
