import type { IncomingMessage } from 'node:http';
import type { Daemon } from './daemon.js';

export type OrgApiAnswer = { status: number; body: unknown };

const ROUTE = /^\/api\/orgs\/([^/]+)(?:\/(suspend|resume|sync))?$/;

/**
 * `GET /api/orgs/{org}` (its sync status and controls), `POST /api/orgs/{org}/suspend|resume`
 * (kept across restarts) and `POST /api/orgs/{org}/sync` (a manual sync). Behind the UI auth like
 * the rest of `/api`. A POST from a browser (any `Origin` header) is refused: a page on another
 * site must not suspend or sync an organization through a browser on this host.
 * Undefined: not one of these paths.
 */
export async function orgApiAnswer(
  daemon: Daemon,
  req: IncomingMessage,
  path: string,
): Promise<OrgApiAnswer | undefined> {
  const m = ROUTE.exec(path);
  if (!m) return undefined;
  let org: string;
  try {
    org = decodeURIComponent(m[1]!);
  } catch {
    return { status: 400, body: { error: 'the organization id in the path is not valid percent-encoding' } };
  }
  const action = m[2];
  const method = req.method ?? 'GET';
  if (action === undefined && method !== 'GET') return { status: 405, body: { error: 'GET only' } };
  if (action !== undefined && method !== 'POST') return { status: 405, body: { error: 'POST only' } };
  if (action !== undefined && req.headers.origin !== undefined)
    return {
      status: 403,
      body: {
        error: 'refused: a request from a browser (Origin header); use docsync suspend|resume or curl',
      },
    };
  const configured = daemon.configured(org) !== undefined;
  const knownByApi = daemon.controls.suspendedThroughApi().includes(org);
  // Resuming an organization that left the config still clears its suspension.
  if (!configured && !(knownByApi && (action === undefined || action === 'resume')))
    return {
      status: 404,
      body: { error: `unknown organization ${org}: the daemon's config does not name it` },
    };
  if (action === 'suspend') await daemon.controls.suspend(org);
  if (action === 'resume') await daemon.controls.resume(org);
  if (action === 'sync') {
    if (!daemon.coordinator.owns(org))
      return { status: 409, body: { error: `this replica does not own ${org}; ask the replica that does` } };
    void daemon.manualSync(org);
    return { status: 202, body: { accepted: true, organization: org, ...orgView(daemon, org) } };
  }
  const view = orgView(daemon, org);
  if (action === 'resume' && view.controls?.suspension?.config)
    return {
      status: 409,
      body: {
        error: `${org} is still suspended: its config says suspended: true, which only a config change lifts`,
        organization: org,
        ...view,
      },
    };
  return { status: 200, body: { organization: org, ...view } };
}

function orgView(daemon: Daemon, org: string) {
  return { configured: daemon.configured(org) !== undefined, ...daemon.status.organizations?.[org] };
}
