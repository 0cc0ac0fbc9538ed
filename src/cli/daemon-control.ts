import type { Command } from 'commander';
import { DocsyncError } from '../errors.js';
import { httpUrl, setting } from './settings.js';
import { out } from './output.js';

/** The daemon's default address: its default listen address and port (`DOCSYNC_PORT` when set). */
export function defaultDaemonUrl(env: NodeJS.ProcessEnv = process.env): string {
  const port = /^\d{1,5}$/.test(env['DOCSYNC_PORT'] ?? '') ? env['DOCSYNC_PORT'] : '8080';
  return `http://127.0.0.1:${port}`;
}

export type DaemonControlOptions = {
  action: 'suspend' | 'resume';
  org: string;
  daemon: string;
  uiAuthFile?: string;
  timeoutMs?: number;
};

type OrgAnswer = {
  error?: string;
  organization?: string;
  controls?: { suspended: boolean; suspension?: { api?: { since: string } }; blockedReason?: string };
};

/** `docsync suspend|resume --org ID`: ask the running daemon, over HTTP, to stop or start applying to it. */
export async function daemonControlCommand(opts: DaemonControlOptions): Promise<number> {
  const headers: Record<string, string> = {};
  if (opts.uiAuthFile) {
    const { readUiAuth } = await import('../daemon/ui-auth.js');
    const auth = await readUiAuth(opts.uiAuthFile);
    headers['authorization'] =
      auth.kind === 'bearer'
        ? `Bearer ${auth.token}`
        : `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
  }
  const base = opts.daemon.replace(/\/+$/, '');
  const url = `${base}/api/orgs/${encodeURIComponent(opts.org)}/${opts.action}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new DocsyncError(
      'daemon-unreachable',
      `cannot reach the daemon at ${base}: ${why} (is docsync daemon running there? --daemon URL, DOCSYNC_DAEMON_URL)`,
    );
  }
  const text = await res.text();
  let body: OrgAnswer = {};
  try {
    body = JSON.parse(text) as OrgAnswer;
  } catch {
    // Not the daemon's JSON: the status says enough.
  }
  const said = body.error ?? `HTTP ${res.status}`;
  if (res.status === 401)
    throw new DocsyncError(
      'daemon-refused',
      `the daemon at ${base} refused: credentials required or wrong (--ui-auth-file FILE, DOCSYNC_UI_AUTH_FILE: the daemon's own file)`,
    );
  if (res.status === 404 && body.error?.startsWith('unknown organization'))
    throw new DocsyncError('unknown-organization', `the daemon at ${base}: ${said}`);
  if (res.status === 404)
    throw new DocsyncError(
      'daemon-refused',
      `${base} has no ${opts.action} endpoint (HTTP 404): is it a docsync daemon of this version?`,
    );
  if (res.status === 409 && opts.action === 'resume') {
    out(`${opts.org}: suspension through the API lifted, but ${said}`);
    return 1;
  }
  if (!res.ok) throw new DocsyncError('daemon-refused', `the daemon at ${base} refused: ${said}`);
  const c = body.controls;
  if (opts.action === 'suspend')
    out(
      `${opts.org} suspended${c?.suspension?.api ? ` (since ${c.suspension.api.since})` : ''}: the daemon applies nothing to it until docsync resume --org ${opts.org}; drift is still checked and reported`,
    );
  else
    out(
      `${opts.org} resumed${c?.blockedReason ? `; apply is still blocked: ${c.blockedReason}` : ': the daemon applies to it again'}`,
    );
  return 0;
}

/** `docsync suspend` and `docsync resume`: kept out of main.ts (one call there). */
/** Declares `docsync suspend` or `docsync resume` on its command (src/cli/commands/daemon-control.ts). */
export function wireDaemonControl(
  action: 'suspend' | 'resume',
  cmd: Command,
  setExit: (code: number) => void,
): void {
  cmd
    .description(
      action === 'suspend'
        ? 'stop a running daemon applying to an organization (drift is still reported; kept across restarts)'
        : 'let a running daemon apply to an organization again (not one suspended by its config)',
    )
    .requiredOption('--org <id>', 'organization id')
    .addOption(
      setting('--daemon <url>', "the daemon's address", {
        env: 'DOCSYNC_DAEMON_URL',
        parse: httpUrl,
        default: defaultDaemonUrl(),
      }),
    )
    .addOption(
      setting('--ui-auth-file <file>', "the daemon's UI credentials file (a token, or user:password)", {
        env: 'DOCSYNC_UI_AUTH_FILE',
      }),
    )
    .action(async (o: { org: string; daemon: string; uiAuthFile?: string }) =>
      setExit(
        await daemonControlCommand({
          action,
          org: o.org,
          daemon: o.daemon,
          ...(o.uiAuthFile ? { uiAuthFile: o.uiAuthFile } : {}),
        }),
      ),
    );
}
