import { badRequest } from './errors.js';

/**
 * Opaque page tokens over a stable order: base64url of the next offset. `shape` (the serializer)
 * runs on the page's items only, not on the whole collection.
 */
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
): { next?: { page: string }; count: number; items: T[] };
export function paginate<T, U>(
  items: readonly T[],
  query: URLSearchParams,
  shape: (item: T) => U,
): { next?: { page: string }; count: number; items: U[] };
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  shape?: (item: T) => unknown,
): { next?: { page: string }; count: number; items: unknown[] } {
  const rawLimit = query.get('limit');
  let limit = 50;
  if (rawLimit !== null) {
    const parsed = Number(rawLimit);
    if (!Number.isFinite(parsed) || parsed < 0 || !Number.isInteger(parsed))
      throw badRequest('limit: must be a number between 0 and 1000');
    if (parsed > 1000) throw badRequest('limit: must be at most 1000');
    limit = parsed === 0 ? 50 : parsed;
  }
  let offset = 0;
  const page = query.get('page');
  if (page !== null && page !== '') {
    const decoded = Buffer.from(page, 'base64url').toString('utf8');
    const match = /^o:(\d+)$/.exec(decoded);
    if (!match) throw badRequest('page: invalid page token');
    offset = Number(match[1]);
  }
  const slice = items.slice(offset, offset + limit);
  const nextOffset = offset + slice.length;
  const result: { next?: { page: string }; count: number; items: unknown[] } = {
    count: items.length,
    items: shape ? slice.map((item) => shape(item)) : slice,
  };
  if (nextOffset < items.length) result.next = { page: Buffer.from(`o:${nextOffset}`).toString('base64url') };
  return result;
}
