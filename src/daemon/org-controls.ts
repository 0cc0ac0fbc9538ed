import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DocsyncError } from '../errors.js';
import type { DesiredOrganization } from '../reconcile/index.js';
import { applyBlocked, windowVerdict, type WindowVerdict } from '../policy/sync-windows.js';

/** Why an organization is suspended: through the API (`docsync suspend`), in its config, or both. */
export type Suspension = { api?: { since: string }; config?: true };

/** What `/status`, `GET /api/orgs/{org}`, the page and the metrics show of an organization's controls. */
export type OrgControlStatus = {
  /** Suspended: the daemon applies nothing to it (drift is still checked and reported). */
  suspended: boolean;
  suspension?: Suspension;
  /** The daemon's automatic apply may run now (not suspended, windows allow it). */
  applyAllowed: boolean;
  /** A manual sync (`POST /api/orgs/{org}/sync`) may apply now. */
  manualSyncAllowed: boolean;
  /** Why apply is blocked, in one line. */
  blockedReason?: string;
  /** policy.syncWindows, each open or not now. */
  syncWindows?: WindowVerdict['windows'];
};

type Stored = { formatVersion: 1; suspended: Record<string, { since: string }> };

/**
 * Per organization: suspension (set through the API, kept across restarts in the daemon's state
 * folder; or `suspended: true` in the config, which only the config lifts) and sync windows
 * (`policy.syncWindows`). Decides whether a sync may apply; never stops planning or drift checks.
 */
export class OrgControls {
  private readonly suspended = new Map<string, { since: string }>();

  private constructor(
    /** Where API suspensions are kept; none: in memory only. */
    private readonly file: string | undefined,
    private readonly now: () => number,
  ) {}

  /** Load the suspensions kept in `file` (none yet: an empty set). A file that cannot be read is an error. */
  static async open(file?: string, now: () => number = Date.now): Promise<OrgControls> {
    const controls = new OrgControls(file, now);
    if (!file) return controls;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return controls;
      throw new DocsyncError('controls-file', `cannot read ${file}: ${(error as Error).message}`);
    }
    try {
      const stored = JSON.parse(text) as Stored;
      if (stored.formatVersion !== 1 || typeof stored.suspended !== 'object') throw new Error('not format 1');
      for (const [org, s] of Object.entries(stored.suspended))
        controls.suspended.set(org, { since: String(s.since) });
    } catch (error) {
      throw new DocsyncError(
        'controls-file',
        `${file} is not a docsync suspension file (${(error as Error).message}); remove it to resume every organization`,
      );
    }
    return controls;
  }

  /** In memory only (tests, and a daemon given no state file). */
  static inMemory(now: () => number = Date.now): OrgControls {
    return new OrgControls(undefined, now);
  }

  async suspend(org: string): Promise<void> {
    if (!this.suspended.has(org)) this.suspended.set(org, { since: new Date(this.now()).toISOString() });
    await this.save();
  }

  async resume(org: string): Promise<void> {
    this.suspended.delete(org);
    await this.save();
  }

  /** The organization's controls now; `org` is its config (undefined: not configured). */
  status(id: string, org: DesiredOrganization | undefined): OrgControlStatus {
    const api = this.suspended.get(id);
    const suspension: Suspension = { ...(api ? { api } : {}), ...(org?.suspended ? { config: true } : {}) };
    const suspended = suspension.api !== undefined || suspension.config === true;
    const windows = org?.policy.syncWindows ?? [];
    const verdict = windows.length > 0 ? windowVerdict(windows, this.now()) : undefined;
    const why = suspended ? suspensionLine(suspension) : verdict?.reason;
    return {
      suspended,
      ...(suspended ? { suspension } : {}),
      applyAllowed: !suspended && (verdict?.apply ?? true),
      manualSyncAllowed: !suspended && (verdict?.manual ?? true),
      ...(why !== undefined ? { blockedReason: why } : {}),
      ...(verdict ? { syncWindows: verdict.windows } : {}),
    };
  }

  /** Why a sync of the organization may not apply now (undefined: it may). */
  applyBlocked(id: string, org: DesiredOrganization | undefined, manual: boolean): string | undefined {
    const api = this.suspended.get(id);
    if (api || org?.suspended)
      return suspensionLine({ ...(api ? { api } : {}), ...(org?.suspended ? { config: true } : {}) });
    const windows = org?.policy.syncWindows ?? [];
    if (windows.length === 0) return undefined;
    return applyBlocked(windowVerdict(windows, this.now()), manual);
  }

  /** Organizations suspended through the API (configured or not). */
  suspendedThroughApi(): string[] {
    return [...this.suspended.keys()].sort();
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    const stored: Stored = { formatVersion: 1, suspended: Object.fromEntries(this.suspended) };
    try {
      await mkdir(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(stored, null, 2)}\n`);
      await rename(tmp, this.file);
    } catch (error) {
      throw new DocsyncError('controls-file', `cannot write ${this.file}: ${(error as Error).message}`);
    }
  }
}

function suspensionLine(s: Suspension): string {
  const how = [
    ...(s.api ? [`through the API since ${s.api.since} (docsync resume lifts it)`] : []),
    ...(s.config ? ['in the config (suspended: true; only a config change lifts it)'] : []),
  ];
  return `the organization is suspended ${how.join(' and ')}`;
}

/** The organizations' sync status with their controls beside it (`/status` → `organizations`). */
export function withControls<S extends object>(
  statuses: Record<string, S>,
  controls: OrgControls,
  configured: readonly DesiredOrganization[],
): Record<string, S & { controls?: OrgControlStatus }> {
  const out: Record<string, S & { controls?: OrgControlStatus }> = { ...statuses };
  const ids = new Set([...configured.map((o) => o.id), ...controls.suspendedThroughApi()]);
  for (const id of [...ids].sort()) {
    const org = configured.find((o) => o.id === id);
    out[id] = { ...(out[id] ?? ({} as S)), controls: controls.status(id, org) };
  }
  return out;
}
