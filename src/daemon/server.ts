import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log/logger.js';
import { redact, redactDeep, registerSecret } from '../secrets/registry.js';
import type { Daemon } from './daemon.js';
import { readiness } from './health.js';
import type { Metrics } from './metrics.js';
import type { RunJournal } from './runs/journal.js';
import { runsAnswer } from './runs/http.js';
import { maskEmails, maskEmailsDeep } from './mask-emails.js';
import { orgApiAnswer } from './org-api.js';
import { authorized, isLoopback, isLoopbackHostHeader, type UiAuth } from './ui-auth.js';
import { statusPage } from './ui/route.js';
import { BodyError, readLimitedBody, verifySignature } from './webhook.js';

/** The header `POST /coordination/release` requires (the preStop hook sends it). */
export const RELEASE_HEADER = 'x-docsync-release';

export type DaemonServer = { url: string; port: number; close: () => Promise<void> };

type ServerOptions = {
  port: number;
  host: string;
  webhookSecret?: string;
  /** Accept unsigned webhooks: only when the operator says so explicitly. */
  webhookInsecure?: boolean;
  bodyTimeoutMs?: number;
  /** Run history: `GET /api/runs`, `GET /api/runs/{id}`. */
  journal?: RunJournal;
  /** Serve the status page at `GET /` (default true). */
  ui?: boolean;
  /** How long `POST /coordination/release` waits for runs in flight to end. */
  drainTimeoutMs?: number;
  /** Credentials for the status page, `/status` and `/api/*` (required beyond loopback). */
  uiAuth?: UiAuth;
  /** Show member e-mails on the page, `/status` and `/api/*` (masked by default). */
  showEmails?: boolean;
  /**
   * Serve the page, `/status` and `/api/*` without credentials on every address: only `docsync
   * demo`, whose data is the emulator's synthetic organization (no flag sets it).
   */
  uiOpen?: boolean;
};

/** What every route of the server reads: the daemon, its metrics and logger, and the options. */
type Served = {
  daemon: Daemon;
  metrics: Metrics;
  logger: Logger;
  opts: ServerOptions;
  mask: (body: unknown) => unknown;
};

/** `/healthz`, `/readyz`, `/status`, `/metrics` and the git push webhook `POST /hooks/git`. */
export async function startDaemonServer(
  daemon: Daemon,
  metrics: Metrics,
  logger: Logger,
  opts: ServerOptions,
): Promise<DaemonServer> {
  registerSecret(opts.webhookSecret);
  const mask = opts.showEmails ? (body: unknown) => body : maskEmailsDeep;
  const served: Served = { daemon, metrics, logger, opts, mask };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    handle(served, req, res, path).catch((error: unknown) => {
      logger.error({ err: (error as Error).message }, 'http handler failed');
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
    });
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every answer passes the redactor: /status carries API and git messages. */
function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(redactDeep(body), null, 2);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(text);
}

/** One request, routed by its path and method. */
async function handle(served: Served, req: IncomingMessage, res: ServerResponse, path: string) {
  const { daemon, metrics, logger, opts, mask } = served;
  const guarded = path === '/' || path === '/status' || path === '/api' || path.startsWith('/api/');
  if (guarded && !admitted(opts, req, res)) return;
  if (req.method === 'GET' && path === '/healthz') return json(res, 200, { status: 'ok' });
  if (req.method === 'GET' && path === '/readyz') {
    const r = readiness(daemon.ready, daemon.status.liveRead ?? null, daemon.coordinator?.session());
    return json(res, r.ready ? 200 : 503, r);
  }
  if (req.method === 'GET' && path === '/status') return json(res, 200, mask(daemon.status));
  if (path === '/coordination/release') return release(served, req, res);
  if (req.method === 'GET' && path === '/metrics') {
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(redact(await metrics.registry.metrics()));
    return;
  }
  if (path === '/hooks/git') return gitWebhook(served, req, res);
  if (req.method === 'GET' && path === '/' && opts.journal && opts.ui !== false) {
    const page = statusPage(daemon, opts.journal);
    res.writeHead(200, page.headers);
    res.end(opts.showEmails ? redact(page.body) : maskEmails(redact(page.body)));
    return;
  }
  const orgAnswer = guarded ? await orgApiAnswer(daemon, req, path) : undefined;
  if (orgAnswer) {
    if (req.method === 'POST') logger.info({ path, status: orgAnswer.status }, 'organization control');
    return json(res, orgAnswer.status, mask(orgAnswer.body));
  }
  if (req.method === 'GET' && opts.journal) {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const answer = runsAnswer(opts.journal.store, path, query);
    if (answer) return json(res, answer.status, mask(answer.body));
  }
  return json(res, 404, { error: 'not found' });
}

/**
 * The status page, `/status` and `/api/*`: with credentials configured, only for requests that
 * carry them; without, only when listening on loopback. False: the refusal was answered.
 */
function admitted(opts: ServerOptions, req: IncomingMessage, res: ServerResponse): boolean {
  if (opts.uiAuth) {
    if (authorized(req, opts.uiAuth)) return true;
    res.setHeader(
      'www-authenticate',
      opts.uiAuth.kind === 'basic' ? 'Basic realm="docsync", charset="UTF-8"' : 'Bearer realm="docsync"',
    );
    json(res, 401, { error: "credentials required (the ones in the daemon's --ui-auth-file)" });
    return false;
  }
  if (opts.uiOpen) return true;
  if (isLoopback(opts.host)) {
    // No credentials: only a request for this host's own name, never one rebound from a web page.
    if (isLoopbackHostHeader(req.headers.host)) return true;
    json(res, 403, {
      error:
        'refused: the Host header is not a loopback name (127.0.0.1, localhost, [::1]); without --ui-auth-file the page, /status and /api answer only to this host',
    });
    return false;
  }
  json(res, 403, {
    error: `disabled: the daemon listens on ${opts.host} without credentials for the status page and /api; give --ui-auth-file FILE (DOCSYNC_UI_AUTH_FILE) holding a token or user:password, or listen on 127.0.0.1 (--host, DOCSYNC_HOST)`,
  });
  return false;
}

/** `POST /coordination/release`: Kubernetes preStop hands this replica's organizations over now. Loopback only. */
async function release({ daemon, opts }: Served, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST') return json(res, 405, { error: 'POST only' });
  if (!isLoopback(req.socket.remoteAddress ?? ''))
    return json(res, 403, { error: 'only from this host (loopback)' });
  // A page in a browser on this host can POST here too, but never without an Origin header
  // or with a custom header (that needs a CORS preflight, which is never granted).
  if (req.headers.origin !== undefined || req.headers[RELEASE_HEADER] !== '1')
    return json(res, 403, {
      error: `refused: send the header "${RELEASE_HEADER}: 1" and no Origin (browsers cannot)`,
    });
  await daemon.coordinator.drain(opts.drainTimeoutMs ?? 60_000);
  return json(res, 200, daemon.coordinator.status());
}

/** `POST /hooks/git`: a signed push (or ping) triggers a sync here and tells the other replicas. */
async function gitWebhook({ daemon, logger, opts }: Served, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST') return json(res, 405, { error: 'POST only' });
  if (!opts.webhookSecret && !opts.webhookInsecure) {
    res.setHeader('connection', 'close');
    return json(res, 403, {
      error:
        'webhook disabled: no secret configured (DOCSYNC_WEBHOOK_SECRET_FILE, DOCSYNC_WEBHOOK_SECRET), and --webhook-insecure not given',
    });
  }
  const body = await webhookBody(opts, req, res);
  if (body === undefined) return;
  if (opts.webhookSecret) {
    const signature = req.headers['x-hub-signature-256'];
    if (!verifySignature(opts.webhookSecret, body, Array.isArray(signature) ? signature[0] : signature)) {
      logger.warn({ remote: req.socket.remoteAddress }, 'webhook refused: bad or missing signature');
      return json(res, 401, { error: 'invalid signature' });
    }
  }
  if (req.headers['x-github-event'] === 'ping') return json(res, 200, { ok: true });
  logger.info({ event: req.headers['x-github-event'] ?? 'push' }, 'webhook received; syncing');
  daemon.trigger('webhook');
  // Other replicas fetch too (they sync the organizations they own).
  // (`?.`: a stand-in daemon of a test may have no coordinator.)
  daemon.coordinator?.announce().catch((error: unknown) => {
    logger.warn({ err: (error as Error).message }, 'could not tell the other replicas about the push');
  });
  return json(res, 202, { accepted: true });
}

/** The webhook's body, bounded in size and time; undefined when too large or slow (then answered). */
async function webhookBody(opts: ServerOptions, req: IncomingMessage, res: ServerResponse) {
  try {
    return await readLimitedBody(req, undefined, opts.bodyTimeoutMs ?? 10_000);
  } catch (error) {
    if (error instanceof BodyError) {
      // Answer, then drop the connection: the rest of the body is not wanted.
      res.setHeader('connection', 'close');
      res.on('finish', () => req.socket.destroy());
      json(res, error.status, { error: error.message });
      return undefined;
    }
    throw error;
  }
}
