import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import { parseAnswer } from './parse.js';
import { Page } from './schema.js';

export const PAGE_LIMIT = 1000;

/**
 * Iterate every item of a list endpoint, page by page (`next.page`, `limit=1000`).
 * A page token seen twice is an error, not an endless loop.
 */
export async function* paginate<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = {},
): AsyncGenerator<z.infer<T>> {
  const schema = Page(item);
  const seen = new Set<string>();
  let page: string | undefined;
  for (;;) {
    const res = await http.send({
      method: 'GET',
      path,
      route,
      query: { ...query, limit: PAGE_LIMIT, page },
      expect: [200],
    });
    const parsed = parseAnswer(schema, res.body, 'GET', route);
    for (const it of parsed.items) yield it as z.infer<T>;
    const next = parsed.next?.page;
    if (!next) return;
    if (seen.has(next))
      throw new ApiError({
        code: 'invalid-response',
        method: 'GET',
        route,
        status: res.status,
        apiMessage: 'next.page repeats a page token already seen; stopping instead of looping',
        sent: true,
      });
    seen.add(next);
    page = next;
  }
}

export async function listAll<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query?: Record<string, string | number | boolean | undefined>,
): Promise<z.infer<T>[]> {
  const out: z.infer<T>[] = [];
  for await (const it of paginate(http, path, route, item, query)) out.push(it);
  return out;
}
