import type { ApiClient } from '../api/client.js';
import { anyListKinds, anyObjectKinds } from '../kinds/registry.js';
import type { DesiredOrganization, DesiredState } from '../reconcile/index.js';
import { makePlan } from './plan-run.js';
import { planFailure } from './failure.js';
import { oneLine } from '../plan/markdown-escape.js';
import type { ApplyResult } from '../apply/result.js';

/** What a re-read after apply found: converged, or the differences that remain. */
export type Verification = {
  converged: boolean;
  /** The config keys re-read, per organization (`sites`, `teams`…; every one when unsure). */
  reread: Record<string, string[]>;
  /** Differences between the config and what the re-read found, in the plan's words. */
  remaining: { action: string; kind: string; address: string }[];
  /** The re-read itself failed: convergence is unknown (counted as not converged). */
  error?: string;
};

/** The tree's keys: collections and spaces are diffed together (src/kinds/collection.ts). */
const TREE = ['collections', 'spaces'];

const camel = (segment: string) => segment.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The config keys whose resources an address names: its second segment (`org/sites/Docs/…` →
 * `sites`, `org/custom-fields/x` → `customFields`); undefined when no key matches.
 */
export function keyOfAddress(address: string): string | undefined {
  const segment = address.split('/')[1];
  if (segment === undefined) return undefined;
  const keys = [...anyListKinds.map((k) => k.key), ...anyObjectKinds.map((k) => k.key), ...TREE];
  return keys.find((k) => k === segment || k === camel(segment));
}

/**
 * The organization as far as the applied changes touched it: only the keys they name (the
 * collections and spaces together), so the re-read reads those lists only and the diff compares
 * nothing else. A change whose address names no key re-reads the whole organization.
 */
export function affectedPart(org: DesiredOrganization, addresses: readonly string[]): DesiredOrganization {
  const keys = new Set<string>();
  for (const address of addresses) {
    const key = keyOfAddress(address);
    if (key === undefined) return org;
    for (const k of TREE.includes(key) ? TREE : [key]) keys.add(k);
  }
  const part: Record<string, unknown> = { id: org.id, policy: org.policy };
  for (const key of keys) if (key in org) part[key] = (org as Record<string, unknown>)[key];
  return part as DesiredOrganization;
}

/**
 * Verified apply: after an apply, re-read what it changed (the affected lists only) and diff it
 * against the config again. Converged when nothing differs; otherwise the differences remain
 * (an API that accepted a write and did not keep it, another writer, a default the platform
 * imposes).
 */
export async function verifyApplied(
  api: ApiClient,
  desired: DesiredState,
  applied: ApplyResult,
): Promise<Verification> {
  const changed = applied.results.filter((r) => r.status === 'applied').map((r) => r.address);
  const organizations = desired.organizations
    .map((org) => ({ org, addresses: changed.filter((a) => a.split('/')[0] === org.id) }))
    .filter(({ addresses }) => addresses.length > 0)
    .map(({ org, addresses }) => affectedPart(org, addresses));
  const reread = Object.fromEntries(
    organizations.map((o) => [o.id, Object.keys(o).filter((k) => k !== 'id' && k !== 'policy')]),
  );
  if (organizations.length === 0) return { converged: true, reread, remaining: [] };
  try {
    const { plan, live } = await makePlan(api, { organizations });
    const failure = planFailure(plan, live);
    const remaining = plan.changes.map((c) => ({ action: c.action, kind: c.kind, address: c.address }));
    if (failure) return { converged: false, reread, remaining, error: failure.message };
    return { converged: remaining.length === 0, reread, remaining };
  } catch (error) {
    return { converged: false, reread, remaining: [], error: (error as Error).message };
  }
}

/** One line for the CLI and the logs: "converged" or what remains. */
export function verificationLine(v: Verification): string {
  const lists = [...new Set(Object.values(v.reread).flat())].join(', ');
  if (v.error !== undefined) return `verify: unknown, the re-read failed: ${oneLine(v.error)}`;
  if (v.converged) return `verify: converged (re-read ${lists || 'nothing'})`;
  const shown = v.remaining.slice(0, 5).map((r) => `${r.action} ${r.kind} ${oneLine(r.address)}`);
  const more = v.remaining.length > 5 ? `; and ${v.remaining.length - 5} more` : '';
  return `verify: not converged, ${v.remaining.length} difference(s) remain after apply (re-read ${lists}): ${shown.join('; ')}${more}`;
}
