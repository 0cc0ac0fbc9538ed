import { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import { pathOf } from '../api/base-client.js';
import { paginate } from '../api/paginate.js';
import type { Change } from '../reconcile/index.js';
import { attribute, targetsOf, type AuditEntry, type Attributions } from '../plan/attribution.js';

const ROUTE = '/orgs/{org}/audit-events';

/** The one read of the audit log, for the compatibility table (where `capabilities.auditLog`). */
export const AUDIT_READ = {
  method: 'GET',
  route: ROUTE,
  what: 'who changed a drifted resource (drift)',
  expect: [200],
} as const;
const Event = z.looseObject({
  occurredAt: z.string(),
  action: z.string(),
  actor: z.looseObject({ type: z.string(), id: z.string(), label: z.string().optional() }),
  target: z.looseObject({ type: z.string(), id: z.string(), label: z.string().optional() }),
});

/** Up to this many drifted resources, one query per resource (`target=ID&limit=1`); beyond, one scan. */
const PER_TARGET = 25;
/** The scan reads at most this many pages of 100 events, newest first. */
const SCAN_PAGES = 5;

/**
 * Who changed each drifted resource (decision 0030): the organization's audit log, read as little
 * as it takes — one small query per drifted resource when there are few, else the newest 500
 * events. Never fails the drift check: a read that fails makes every change "unknown" and says why.
 */
export async function readAttributions(
  client: ApiClient,
  org: string,
  changes: readonly Change[],
): Promise<Attributions> {
  const readAt = new Date().toISOString();
  if (changes.length === 0) return { readAt, byChange: {} };
  if (!client.capabilities.auditLog)
    return { readAt, byChange: {}, unavailable: 'this API has no audit log: who changed what is unknown' };
  try {
    const events = await auditEvents(client, org, changes);
    return { readAt, byChange: attribute(changes, events) };
  } catch (error) {
    return {
      readAt,
      byChange: {},
      unavailable: `the audit log could not be read (${(error as { code?: string }).code ?? 'error'}): who changed what is unknown`,
    };
  }
}

async function auditEvents(
  client: ApiClient,
  org: string,
  changes: readonly Change[],
): Promise<AuditEntry[]> {
  const path = pathOf(ROUTE, { org });
  const last = changes.map((c) => targetsOf(c).pop());
  const targets = [...new Set(last.filter((t) => t !== undefined))];
  const out: AuditEntry[] = [];
  const scan = async (pages: number) => {
    let n = 0;
    for await (const e of paginate(client.http, path, ROUTE, Event, { limit: 100 })) {
      out.push(e as AuditEntry);
      if (++n >= pages * 100) break;
    }
  };
  if (targets.length > PER_TARGET) {
    await scan(SCAN_PAGES);
    return out;
  }
  await Promise.all(
    targets.map(async (target) => {
      for await (const e of paginate(client.http, path, ROUTE, Event, { target, limit: 1 })) {
        out.push(e as AuditEntry);
        break;
      }
    }),
  );
  // A resource that is gone from the live state (someone deleted it) is known by its name only.
  if (last.some((t) => t === undefined)) await scan(1);
  return out;
}
