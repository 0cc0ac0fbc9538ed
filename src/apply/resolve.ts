import { readFileSync } from 'node:fs';
import { certificateHash } from '../model/certificate.js';
import { isRefValue, type CertificateValue, type Patch, type Position, type Ref } from '../model/index.js';

/** Ids produced by applied changes: `id`, and `siteSpace:<spaceId>` for a created section's first site space. */
export type Produced = Map<string, Record<string, string>>;

export class UnresolvedRefError extends Error {
  readonly code = 'unresolved-ref';
}

export function resolveRef(ref: Ref, produced: Produced): string {
  if ('id' in ref) return ref.id;
  const ids = produced.get(ref.change);
  const id = ids?.[ref.key ?? 'id'];
  if (!id) throw new UnresolvedRefError(`change ${ref.change} produced no ${ref.key ?? 'id'}`);
  return id;
}

export function resolvePatch(patch: Patch, produced: Produced): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(patch).map(([k, v]) => [k, isRefValue(v) ? resolveRef(v.$ref, produced) : v]),
  );
}

/** A move position in the API's shape: `{ before|after: { type, <key>: id } }`. */
export function resolvePosition(
  position: Position,
  type: string,
  key: string,
  produced: Produced,
): Record<string, unknown> {
  const where = position.before ? 'before' : 'after';
  const ref = (position.before ?? position.after)!;
  return { [where]: { type, [key]: resolveRef(ref, produced) } };
}
