import { readCertificateSource } from './certificates.js';
import {
  isRefValue,
  type CertificateRef,
  type CertificateValue,
  type Patch,
  type Position,
  type Ref,
} from '../model/index.js';
import { DocsyncError, type DocsyncErrorOptions } from '../errors.js';

/** Ids produced by applied changes: `id`, and `siteSpace:<spaceId>` for a created section's first site space. */
export type Produced = Map<string, Record<string, string>>;

export class UnresolvedRefError extends DocsyncError<'unresolved-ref'> {
  constructor(message: string, options?: DocsyncErrorOptions) {
    super('unresolved-ref', message, options);
  }
}

export function resolveRef(ref: Ref, produced: Produced): string {
  if ('id' in ref) return ref.id;
  const ids = produced.get(ref.change);
  const id = ids?.[ref.key ?? 'id'];
  if (!id) throw new UnresolvedRefError(`change ${ref.change} produced no ${ref.key ?? 'id'}`);
  return id;
}

/** Resolve references (at any depth) and certificates in a body. */
export function resolvePatch(
  patch: Patch,
  produced: Produced,
  readCertificate: (c: CertificateRef) => string = readCertificateSource,
): Record<string, unknown> {
  const walk = (v: unknown): unknown => {
    if (isRefValue(v)) return resolveRef(v.$ref, produced);
    if (v && typeof v === 'object' && '$certificate' in v)
      return readCertificate((v as CertificateValue).$certificate);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(patch) as Record<string, unknown>;
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
