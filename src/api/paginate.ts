import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { HttpClient } from './http.js';
import { parseAnswer } from './parse.js';
import { Page } from './schema.js';

export const PAGE_LIMIT = 1000;
/** Empty pages that still name a next page: an API in a loop, not a list. */
const MAX_EMPTY_PAGES = 3;

/**
 * Iterate the pages of a list endpoint (`next.page`, `limit=1000`), each page's items as one array.
 * Bounded: a page token seen twice, empty pages that keep pointing onward, or more than the
 * client's `maxPages` pages are errors naming the endpoint, never an endless loop.
 */
export async function* pages<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = {},
): AsyncGenerator<z.infer<T>[]> {
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
      // A list's next page is on the path of every read below its items: it goes first.
      ...(page !== undefined ? { priority: 1 } : {}),
    });
    const parsed = parseAnswer(schema, res.body, 'GET', route);
    yield parsed.items as z.infer<T>[];
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

/** Every item of a list endpoint, one at a time (see `pages`). */
export async function* paginate<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = {},
): AsyncGenerator<z.infer<T>> {
  for await (const page of pages(http, path, route, item, query)) yield* page;
}

/** Every item of a list endpoint: a one-page list is its page's own array (no copy, no step per item). */
export async function listAll<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query?: Record<string, string | number | boolean | undefined>,
): Promise<z.infer<T>[]> {
  let out: z.infer<T>[] | undefined;
  for await (const page of pages(http, path, route, item, query)) {
    if (out === undefined) out = page;
    else for (const it of page) out.push(it);
  }
  return out ?? [];
}
