import type { Change } from '../reconcile/index.js';

/** One audit event, as much of it as attribution needs (the API's `AuditEvent`). */
export type AuditEntry = {
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label?: string | undefined };
  target: { type: string; id: string; label?: string | undefined };
};

/** Who last changed a drifted resource, and when; `null` when the audit log has nothing for it. */
export type Attribution = { actor: string; at: string; action: string } | null;

/** What the plan's renderers show beside a drifted change. */
export type Attributions = {
  /** When the audit log was read: "3 h ago" is counted from here, so a report renders the same twice. */
  readAt: string;
  /** By change id. */
  byChange: Record<string, Attribution>;
  /** Why nothing could be attributed (an API without an audit log, a read that failed). */
  unavailable?: string;
};

/**
 * The live ids a change's operation names, most specific last (`site`, then `section`): what an
 * audit event's target may be. Values are plain ids (`userId`) or references to live objects
 * (`{ id }`); references to objects the plan creates name nothing live.
 */
export function targetsOf(change: Change): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(change.op as Record<string, unknown>)) {
    // Plain ids are named `…Id` (`userId`, `spaceId`); other strings are values (a role, a URL).
    if (typeof value === 'string' && value.length > 0 && key.endsWith('Id')) out.push(value);
    else if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'string')
      out.push(value.id);
  }
  return out;
}

/** The last segment of a change's address (`Platform` of `org/teams/Platform`): a target's label. */
function labelOf(change: Change): string {
  const parts = change.address.split('/');
  return parts[parts.length - 1] ?? change.address;
}

/**
 * Attribute each drifted change to the newest audit event whose target is the most specific id its
 * operation names, else whose target label is the resource's name. Events are in any order.
 */
export function attribute(
  changes: readonly Change[],
  events: readonly AuditEntry[],
): Record<string, Attribution> {
  const byId = new Map<string, AuditEntry>();
  const byLabel = new Map<string, AuditEntry>();
  const newer = (map: Map<string, AuditEntry>, key: string, e: AuditEntry) => {
    const seen = map.get(key);
    if (!seen || seen.occurredAt < e.occurredAt) map.set(key, e);
  };
  for (const e of events) {
    newer(byId, e.target.id, e);
    if (e.target.label) newer(byLabel, e.target.label, e);
  }
  const out: Record<string, Attribution> = {};
  for (const change of changes) {
    const targets = targetsOf(change).reverse();
    const hit = targets.map((t) => byId.get(t)).find((e) => e) ?? byLabel.get(labelOf(change));
    out[change.id] = hit
      ? { actor: hit.actor.label ?? hit.actor.id, at: hit.occurredAt, action: hit.action }
      : null;
  }
  return out;
}

/** "changed by ann@acme.com at 2026-11-25 14:02 UTC, 3 h ago", or "changed by: unknown". */
export function describeAttribution(a: Attribution | undefined, now: Date): string {
  if (!a) return 'changed by: unknown (the audit log has nothing for it)';
  const at = new Date(a.at);
  const when = Number.isNaN(at.getTime())
    ? a.at
    : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${ago(now.getTime() - at.getTime())}`;
  return `changed by ${a.actor} at ${when}`;
}

function ago(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** The attributions of several organizations' reads, as one (the first reason any was unavailable). */
export function mergeAttributions(parts: readonly Attributions[]): Attributions {
  const unavailable = parts.find((p) => p.unavailable)?.unavailable;
  return {
    readAt: parts[0]?.readAt ?? new Date(0).toISOString(),
    byChange: Object.assign({}, ...parts.map((p) => p.byChange)) as Record<string, Attribution>,
    ...(unavailable ? { unavailable } : {}),
  };
}

/** Who changed a drift, in one line: `ann@acme.com (2), bob@acme.com (1), unknown (1)`; most first. */
export function whoChanged(a: Attributions | undefined): string | undefined {
  if (!a || a.unavailable) return undefined;
  const counts = new Map<string, number>();
  for (const v of Object.values(a.byChange))
    counts.set(v?.actor ?? 'unknown', (counts.get(v?.actor ?? 'unknown') ?? 0) + 1);
  if (counts.size === 0) return undefined;
  return [...counts]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .map(([who, n]) => `${who} (${n})`)
    .join(', ');
}
