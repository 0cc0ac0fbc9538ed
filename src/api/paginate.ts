import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import { parseAnswer } from './parse.js';
import { Page } from './schema.js';

export const PAGE_LIMIT = 1000;
/** Empty pages that still name a next page: an API in a loop, not a list. */
const MAX_EMPTY_PAGES = 3;

/**
 * Iterate every item of a list endpoint, page by page (`next.page`, `limit=1000`).
 * Bounded: a page token seen twice, empty pages that keep pointing onward, or more than the
 * client's `maxPages` pages are errors naming the endpoint, never an endless loop.
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
  let emptyInARow = 0;
  const fail = (status: number, message: string) =>
    new ApiError({ code: 'invalid-response', method: 'GET', route, status, apiMessage: message, sent: true });
  for (let pages = 1; ; pages += 1) {
    const res = await http.send({
      method: 'GET',
      path,
      route,
      query: { limit: PAGE_LIMIT, ...query, page },
      expect: [200],
    });
    const parsed = parseAnswer(schema, res.body, 'GET', route);
    for (const it of parsed.items) yield it as z.infer<T>;
    const next = parsed.next?.page;
    if (!next) return;
    if (seen.has(next))
      throw fail(res.status, 'next.page repeats a page token already seen; stopping instead of looping');
    emptyInARow = parsed.items.length === 0 ? emptyInARow + 1 : 0;
    if (emptyInARow >= MAX_EMPTY_PAGES)
      throw fail(res.status, `${emptyInARow} empty pages in a row still point to a next page; stopping`);
    if (pages >= http.maxPages)
      throw fail(res.status, `the list has more than ${http.maxPages} pages; stopping (a pagination loop?)`);
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
