import { createHash } from 'node:crypto';
import type { Change } from '../reconcile/index.js';

/** JSON with object keys sorted, so equal values always serialize the same way. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The plan's checksum: sha256 over one JSON line per change (its id, action, kind, address,
 * before, after, dependsOn and op, in that order). The diff builds every object in a fixed key
 * order, so JSON.stringify is canonical here. The lines are fed in chunks of about 64 kB: one call
 * into the hash per chunk, not two per change, and never one string of the whole plan.
 */
export function checksumOf(changes: readonly Change[]): string {
  const hash = createHash('sha256');
  let chunk = '';
  for (let i = 0; i < changes.length; i += 1) {
    const c = changes[i]!;
    chunk += `${JSON.stringify([c.id, c.action, c.kind, c.address, c.before, c.after, c.dependsOn, c.op])}\n`;
    if (chunk.length >= 65536) {
      hash.update(chunk);
      chunk = '';
    }
  }
  return hash.update(chunk).digest('hex');
}
