import type { LiveRead } from './health.js';
import type { Metrics } from './metrics.js';
import type { OrgSyncStatus, SyncReport } from './types.js';

type Entry = {
  lastSuccess?: number;
  inSync?: number;
  lastSync?: number;
  lastResult?: SyncReport['result'];
  pending?: number;
  ownedSince?: number;
  read?: { ok: boolean; at: number; error?: string };
};

const SUCCESS: ReadonlySet<SyncReport['result']> = new Set(['applied', 'planned', 'no-changes']);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/**
 * Per organization: when a change was seen, when it was applied, when the organization was last
 * known in sync (issue 34). Feeds `docsync_change_to_apply_seconds`,
 * `docsync_org_last_success_timestamp_seconds` (owned organizations only) and `/status`.
 */
export class OrgHealth {
  private readonly orgs = new Map<string, Entry>();
  /** An organization owned since the start and never synced counts from the start. */
  private readonly startedAt: number;

  constructor(
    private readonly metrics: Metrics,
    private readonly owned: () => readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    metrics.orgsInSync.read = () => this.inSyncOfOwned();
  }

  private entry(org: string): Entry {
    let e = this.orgs.get(org);
    if (!e) this.orgs.set(org, (e = {}));
    return e;
  }

  /** A change to these organizations was seen now (a new revision fetched, drift detected). */
  seen(orgs: readonly string[], at = this.now()): void {
    for (const org of orgs) this.entry(org).pending ??= at;
  }

  /** This replica took these organizations: the alert counts from now, and they are synced at once. */
  gained(orgs: readonly string[]): void {
    const at = this.now();
    for (const org of orgs) {
      const e = this.entry(org);
      e.ownedSince = at;
      e.pending ??= at;
    }
  }

  /** A fetch found nothing new: organizations with nothing pending and a good last sync are still in sync. */
  confirmed(orgs: readonly string[]): void {
    const at = this.now();
    for (const org of orgs) {
      const e = this.orgs.get(org);
      if (e && e.pending === undefined && e.lastResult !== undefined && SUCCESS.has(e.lastResult))
        e.inSync = at;
    }
  }

  /** A sync of the organization ended: an applied change reports how long it took since it was seen. */
  finished(org: string, result: SyncReport['result']): void {
    const at = this.now();
    const e = this.entry(org);
    e.lastSync = at;
    e.lastResult = result;
    if (!SUCCESS.has(result)) return;
    if (result === 'applied' && e.pending !== undefined)
      this.metrics.changeToApply.observe(Math.max(0, at - e.pending) / 1000);
    // Plan mode applies nothing: what is pending stays pending until someone applies it.
    if (result !== 'planned') e.pending = undefined;
    e.lastSuccess = at;
    e.inSync = at;
  }

  /** An attempt to read the organization's live state (a sync's plan, a drift check) ended. */
  read(org: string, error?: string): void {
    this.entry(org).read = {
      ok: error === undefined,
      at: this.now(),
      ...(error !== undefined ? { error } : {}),
    };
  }

  /**
   * The live reads that decide readiness, over the owned organizations only (one that was never
   * read counts as fine): the most recent failure among their last reads when any failed, else
   * the most recent read; null when none was read. Kept per organization, so a read of one never
   * hides (or invents) another one's failure, whatever order they end in.
   */
  liveRead(): LiveRead | null {
    const reads = this.owned().flatMap((org) => {
      const read = this.orgs.get(org)?.read;
      return read ? [{ org, ...read }] : [];
    });
    const failed = reads.filter((r) => !r.ok);
    const latest = (failed.length > 0 ? failed : reads).reduce<(typeof reads)[number] | undefined>(
      (a, b) => (a === undefined || b.at >= a.at ? b : a),
      undefined,
    );
    if (!latest) return null;
    const at = new Date(latest.at).toISOString();
    if (latest.ok) return { ok: true, at };
    const others = failed.length > 1 ? ` (and ${failed.length - 1} more organization(s))` : '';
    return { ok: false, at, error: `${latest.org}: ${latest.error ?? 'unknown error'}${others}` };
  }

  /** Owned organizations and when each was last known in sync (or taken over, or the daemon started, if later). */
  private inSyncOfOwned(): [string, number][] {
    return this.owned().map((org) => {
      const e = this.orgs.get(org);
      return [org, Math.max(e?.inSync ?? 0, e?.ownedSince ?? 0, this.startedAt) / 1000];
    });
  }

  status(): Record<string, OrgSyncStatus> {
    const owned = new Set(this.owned());
    const out: Record<string, OrgSyncStatus> = {};
    for (const org of [...new Set([...this.orgs.keys(), ...owned])].sort()) {
      const e = this.orgs.get(org) ?? {};
      const fields: Omit<OrgSyncStatus, 'owned'> = {
        lastSuccessAt: iso(e.lastSuccess),
        inSyncAt: iso(e.inSync),
        lastSyncAt: iso(e.lastSync),
        lastResult: e.lastResult,
        pendingSince: iso(e.pending),
        liveRead: e.read && {
          ok: e.read.ok,
          at: new Date(e.read.at).toISOString(),
          ...(e.read.error !== undefined ? { error: e.read.error } : {}),
        },
      };
      out[org] = {
        owned: owned.has(org),
        ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
      };
    }
    return out;
  }
}
