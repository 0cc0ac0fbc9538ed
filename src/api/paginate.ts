import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { HttpClient, HttpResponse } from './http.js';
import { parseAnswer } from './parse.js';
import { Page } from './schema.js';

export const PAGE_LIMIT = 1000;
/** Empty pages that still name a next page: an API in a loop, not a list. */
const MAX_EMPTY_PAGES = 3;

/**
 * Iterate the pages of a list endpoint (`next.page`, `limit=1000`), each page's items as one array.
 * Bounded: a page token seen twice, empty pages that keep pointing onward, or more than the
 * client's `maxPages` pages are errors naming the endpoint, never an endless loop. With `live`,
 * each page's items are checked and made into their live form as the answer arrives (inside the
 * client's call: `HttpClient.send`'s `shape`), and the page as the API sent it is dropped there.
 */
export async function* pages<T extends z.ZodType, S = z.infer<T>>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = {},
  live?: (item: z.infer<T>) => S,
): AsyncGenerator<S[]> {
  const schema = Page(item);
  const seen = new Set<string>();
  let page: string | undefined;
  let emptyInARow = 0;
  const fail = (status: number, message: string) =>
    new ApiError({ code: 'invalid-response', method: 'GET', route, status, apiMessage: message, sent: true });
  const shape = (res: HttpResponse) => {
    const parsed = parseAnswer(schema, res.body, 'GET', route);
    const items = parsed.items as z.infer<T>[];
    return { status: res.status, items: live ? items.map(live) : (items as S[]), next: parsed.next?.page };
  };
  for (let pages = 1; ; pages += 1) {
    const { status, items, next } = await http.send(
      {
        method: 'GET',
        path,
        route,
        query: { limit: PAGE_LIMIT, ...query, page },
        expect: [200],
        // A list's next page is on the path of every read below its items: it goes first.
        ...(page !== undefined ? { priority: 1 } : {}),
      },
      shape,
    );
    yield items;
    if (!next) return;
    if (seen.has(next))
      throw fail(status, 'next.page repeats a page token already seen; stopping instead of looping');
    emptyInARow = items.length === 0 ? emptyInARow + 1 : 0;
    if (emptyInARow >= MAX_EMPTY_PAGES)
      throw fail(status, `${emptyInARow} empty pages in a row still point to a next page; stopping`);
    if (pages >= http.maxPages)
      throw fail(status, `the list has more than ${http.maxPages} pages; stopping (a pagination loop?)`);
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

/**
 * Every item of a list endpoint (made into `live`, when given, as each page arrives): a one-page
 * list is its page's own array (no copy, no step per item).
 */
export async function listAll<T extends z.ZodType, S = z.infer<T>>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query?: Record<string, string | number | boolean | undefined>,
  live?: (item: z.infer<T>) => S,
): Promise<S[]> {
  let out: S[] | undefined;
  for await (const page of pages(http, path, route, item, query, live)) {
    if (out === undefined) out = page;
    else for (const it of page) out.push(it);
  }
  return out ?? [];
}
