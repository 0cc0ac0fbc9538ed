import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { HttpClient, HttpResponse } from './http.js';
import type { AnswerReader } from './request.js';
import { parseAnswer } from './parse.js';
import { Page } from './schema.js';

export const PAGE_LIMIT = 1000;
/**
 * The smallest answer whose next page is looked for in its bytes before they are parsed (`peek`):
 * below it the parse costs less than a millisecond, and a page of one item or none (the bounds'
 * empty pages) is asked for after its check, as before.
 */
const PEEK_MIN_BYTES = 16 * 1024;
/** How far from either end of an answer its `next` is looked for. */
const PEEK_SPAN = 512;
/** A page token as `peek` takes it: printable ASCII without quotes or backslashes (anything else: parsed). */
const TOKEN = String.raw`([\x21\x23-\x5b\x5d-\x7e]+)`;
/** The root's last member, `"next":{"page":"…"}`, then the root's end. */
const NEXT_LAST = new RegExp(String.raw`[{,]\s*"next"\s*:\s*\{\s*"page"\s*:\s*"${TOKEN}"\s*\}\s*\}\s*$`);
/** The root's first member, `{"next":{"page":"…"}`. */
const NEXT_FIRST = new RegExp(String.raw`^\s*\{\s*"next"\s*:\s*\{\s*"page"\s*:\s*"${TOKEN}"\s*\}\s*[,}]`);

/**
 * The next page's token in a list answer's bytes, found without parsing them: when the root
 * object's last (or first) member is `"next": { "page": "…" }` (as the API and the emulator write
 * it). In valid JSON a quote is either structure or escaped inside a string, so a match at the
 * root's end cannot be a string's content; a token with anything but plain ASCII is left to the parse.
 * A body that is not valid JSON (cut short) may match an inner `next`: the guess costs one request,
 * and the parse, which fails, decides (no page is taken from the guess).
 */
export function nextInBytes(bytes: Buffer): string | undefined {
  const tail = bytes.toString('latin1', Math.max(0, bytes.length - PEEK_SPAN));
  const found = NEXT_LAST.exec(tail) ?? NEXT_FIRST.exec(bytes.toString('latin1', 0, PEEK_SPAN));
  return found?.[1];
}
/**
 * A page's expected status, one array for every page: an array allocated with each request lived
 * as long as the request waited, and its allocation site's move to the old generation mid-plan
 * deoptimized the code that made it.
 */
const EXPECT_OK: readonly number[] = [200];
/** Empty pages that still name a next page: an API in a loop, not a list. */
const MAX_EMPTY_PAGES = 3;

/**
 * One page of a list: its items (live, when asked), the token of the next page if any, and the walk
 * it is a page of (so that one function for every list takes a first page on: `allPages`).
 */
type PageOf<S> = { status: number; items: S[]; next: string | undefined; walk: PageWalk<z.ZodType, S> };

/** The empty query of a list asked for without one (one object, not one a read). */
const NO_QUERY: Readonly<Record<string, string | number | boolean | undefined>> = {};
/**
 * The query of a list's first page asked for without a query of its own (nearly every read below
 * an item): one object, made as every page's query is (so of the same shape), not one a read
 * kept while it waits in the client's queue. Nothing writes a request's query.
 */
const FIRST_PAGE: Readonly<Record<string, string | number | boolean | undefined>> = {
  limit: PAGE_LIMIT,
  ...NO_QUERY,
  page: undefined,
};

/**
 * The walk through one list's pages: the request for each page, and the bounds (a page token
 * seen twice, empty pages that keep pointing onward, more than the client's `maxPages` pages).
 * With `live`, each page's items are checked and made into their live form as the answer
 * arrives (inside the client's call: `HttpClient.send`'s `shape`), and the page as the API sent
 * it is dropped there.
 */
class PageWalk<T extends z.ZodType, S> {
  /** Page tokens seen (made at a second page: most lists a plan reads have one). */
  private seen: Set<string> | undefined;
  private page: string | undefined;
  /**
   * Pages the reader took (`fetch`), what `maxPages` bounds: a page asked for ahead counts once
   * taken, so a guess dropped (its bytes named another page than the parse: `peek`) costs a
   * request but no page of the bound.
   */
  private count = 0;
  private emptyInARow = 0;
  /**
   * The next page, asked for as soon as an answer named it (`askAhead`): its token and its answer.
   * Two fields, not a `{ page, got }` object: the object's `got` took the type of the first promise
   * stored in it, and its first change mid-plan (when the first list had a page ahead) threw away
   * the compile jobs under way that had inlined the walk (`fetch`, `listAll`, `readChildren`:
   * V8's field type dependency, decision 42's seventeenth pass (req7)).
   */
  private aheadPage: string | undefined;
  private aheadGot: Promise<PageOf<S>> | undefined;
  /**
   * The page the reader took last (`fetch`): only its answer asks for the page after it, so a
   * walk is never more than one page ahead of its reader, and a reader that stops (or a page that
   * fails its check) leaves at most that one request behind, not a chain running on by itself.
   */
  private taken: string | undefined;
  /** The page's schema (zod's, made once per item schema: `Page`). */
  private readonly schema: z.ZodType<{ items: unknown[]; next?: { page: string } | null | undefined }>;

  constructor(
    private readonly http: HttpClient,
    private readonly path: string,
    private readonly route: string,
    item: T,
    private readonly query: Record<string, string | number | boolean | undefined>,
    private readonly live: ((item: z.infer<T>) => S) | undefined,
    /** The list's items have reads below them: its first page goes first too. */
    private readonly leads = false,
    /** Ask for the next page before the reader takes it (a reader that reads the whole list). */
    private readonly readsAhead = true,
  ) {
    this.schema = Page(item);
    // Stored once more than their definition: V8 takes a field stored only where it is defined
    // for a constant, and the first list with a second page (`more`, mid-plan) made these three
    // variable for every walk, which threw away the compile jobs under way that had inlined the
    // walk's constructor (field constness dependency, decision 42's seventeenth pass (req7)).
    this.page = undefined;
    this.seen = undefined;
    this.emptyInARow = 0;
  }

  /**
   * What the caller keeps of page `page`'s answer: its items checked (and made live), its next page.
   * A method, not a closure made with each walk (thousands wait in the client's queue at once);
   * the page's reader (`PageReader`) calls it.
   */
  shape(res: HttpResponse, page: string | undefined): PageOf<S> {
    // The next page is asked for as soon as the answer names it, before its items are checked
    // and made live (and handed over): a chain of pages waits for none of that (decision 43).
    if (this.mayAskAhead(page)) this.askAhead(res);
    const parsed = parseAnswer(this.schema, res.body, 'GET', this.route);
    const items = parsed.items as z.infer<T>[];
    const live = this.live;
    return {
      status: res.status,
      items: live ? items.map(live) : (items as S[]),
      next: parsed.next?.page,
      walk: this as PageWalk<z.ZodType, S>,
    };
  }

  /** The next page (the first, at the start): the one asked for ahead, when it is that one. */
  fetch(): Promise<PageOf<S>> {
    const aheadPage = this.aheadPage;
    const aheadGot = this.aheadGot;
    this.aheadPage = undefined;
    this.aheadGot = undefined;
    this.taken = this.page;
    this.count += 1;
    if (aheadGot !== undefined && aheadPage === this.page) return aheadGot;
    return this.request(this.page);
  }

  /**
   * The page after the answer `res` (its body as the API sent it, not checked yet), asked for now
   * when it names one within the bounds `more` checks: `fetch` then takes it. Only the answer of the
   * page the reader took asks (`taken`): a page that fails its check after this, or a reader that
   * stops, has cost one request more, whose answer is dropped and asks for nothing.
   */
  private askAhead(res: HttpResponse): void {
    const body = res.body as { items?: unknown; next?: { page?: unknown } | null } | null | undefined;
    const next = body?.next?.page;
    if (typeof next !== 'string' || next === '' || !Array.isArray(body!.items)) return;
    if (this.beyond(res.status, body!.items.length, next) !== undefined) return;
    this.sendAhead(next);
  }

  /**
   * The page after a large answer of page `page`, asked for from its bytes before they are parsed
   * (`nextInBytes`; the client writes it first: `HttpRequest.peek`): the chain of pages waits for no
   * parse (1,000 teams: 2–5 ms a page). Whether the answer names it is checked once it is parsed, as
   * for `askAhead`: `fetch` takes the page asked for ahead only when it is the one named. Judged
   * by the same bounds, the answer counted as not empty (it is 16 kB at least).
   */
  peek(page: string | undefined, status: number, bytes: Buffer): boolean {
    if (!this.mayAskAhead(page)) return false;
    if (bytes.length < PEEK_MIN_BYTES) return false;
    const next = nextInBytes(bytes);
    if (next === undefined || this.beyond(status, 1, next) !== undefined) return false;
    this.sendAhead(next);
    return true;
  }

  /** Whether the answer of page `page` may ask for the next one: the page the reader took, none asked yet. */
  private mayAskAhead(page: string | undefined): boolean {
    return this.readsAhead && page === this.taken && this.aheadGot === undefined;
  }

  private sendAhead(next: string): void {
    const got = this.request(next);
    // Settled when `fetch` takes it; a page never taken (this one failed) fails unheard.
    got.catch(() => undefined);
    this.aheadPage = next;
    this.aheadGot = got;
  }

  private request(page: string | undefined): Promise<PageOf<S>> {
    return this.http.send(
      {
        method: 'GET',
        path: this.path,
        route: this.route,
        query:
          page === undefined && this.query === NO_QUERY
            ? FIRST_PAGE
            : { limit: PAGE_LIMIT, ...this.query, page },
        expect: EXPECT_OK,
        // A list's next page is on the path of every read below its items: it goes first. So does
        // the first page of a list with reads below its items: until the first answer the client
        // sends only its first few requests (FIRST_REQUESTS), and a plain list among them would
        // hold back every read below.
        priority: page !== undefined || this.leads ? 1 : 0,
      },
      new PageReader<S>(this as PageWalk<z.ZodType, S>, page),
    );
  }

  /** The items of `first` and of every page after it, in `first`'s own array (one page: no copy). */
  all(first: PageOf<S>): S[] | Promise<S[]> {
    const out = first.items;
    if (!this.more(first)) return out;
    const next = (got: PageOf<S>): S[] | Promise<S[]> => {
      for (const it of got.items) out.push(it);
      return this.more(got) ? this.fetch().then(next) : out;
    };
    return this.fetch().then(next);
  }

  /** Whether there is a page after `got` (throws when the list breaks a bound). */
  more({ status, items, next }: PageOf<S>): boolean {
    if (!next) return false;
    const broken = this.beyond(status, items.length, next);
    if (broken) throw broken;
    this.emptyInARow = items.length === 0 ? this.emptyInARow + 1 : 0;
    (this.seen ??= new Set()).add(next);
    this.page = next;
    return true;
  }

  /** The bound a next page `next` after a page of `length` items would break, if any. */
  private beyond(status: number, length: number, next: string): ApiError | undefined {
    if (this.seen?.has(next))
      return this.fail(status, 'next.page repeats a page token already seen; stopping instead of looping');
    const empty = length === 0 ? this.emptyInARow + 1 : 0;
    if (empty >= MAX_EMPTY_PAGES)
      return this.fail(status, `${empty} empty pages in a row still point to a next page; stopping`);
    if (this.count >= this.http.maxPages)
      return this.fail(
        status,
        `the list has more than ${this.http.maxPages} pages; stopping (a pagination loop?)`,
      );
    return undefined;
  }

  private fail(status: number, message: string): ApiError {
    return new ApiError({
      code: 'invalid-response',
      method: 'GET',
      route: this.route,
      status,
      apiMessage: message,
      sent: true,
    });
  }
}

/**
 * A page's answer read for its walk (`PageWalk.shape`, `PageWalk.peek`): one object a request, where
 * a closure for each and their context were made with every request and kept while it waited.
 */
class PageReader<S> implements AnswerReader<PageOf<S>> {
  constructor(
    private readonly walk: PageWalk<z.ZodType, S>,
    private readonly page: string | undefined,
  ) {}
  read(res: HttpResponse): PageOf<S> {
    return this.walk.shape(res, this.page);
  }
  peek(status: number, bytes: Buffer): boolean {
    return this.walk.peek(this.page, status, bytes);
  }
}

/**
 * Iterate the pages of a list endpoint (`next.page`, `limit=1000`), each page's items as one array.
 * Bounded: a page token seen twice, empty pages that keep pointing onward, or more than the
 * client's `maxPages` pages are errors naming the endpoint, never an endless loop (`PageWalk`).
 */
export async function* pages<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = NO_QUERY,
  leads = false,
  /** The next page asked for while the reader has this one (false: a reader that may stop early). */
  readsAhead = true,
): AsyncGenerator<z.infer<T>[]> {
  const walk = new PageWalk<T, z.infer<T>>(http, path, route, item, query, undefined, leads, readsAhead);
  for (;;) {
    const got = await walk.fetch();
    yield got.items;
    if (!walk.more(got)) return;
  }
}

/**
 * Every item of a list endpoint, one at a time (see `pages`), for a reader that may stop early (the
 * audit log's newest events): a page is asked for only when the reader wants it.
 */
export async function* paginate<T extends z.ZodType>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = NO_QUERY,
): AsyncGenerator<z.infer<T>> {
  for await (const page of pages(http, path, route, item, query, false, false)) yield* page;
}

/**
 * Every item of a list endpoint (made into `live`, when given, as each page arrives): a one-page
 * list is its page's own array (no copy, no step per item). A plain loop, not `pages`: a plan
 * reads thousands of one-page lists (a team's members), each waiting in the client's queue for
 * seconds, and an async generator per list is that much more to keep and to step (decision 42).
 */
export function listAll<T extends z.ZodType, S = z.infer<T>>(
  http: HttpClient,
  path: string,
  route: string,
  item: T,
  query: Record<string, string | number | boolean | undefined> = NO_QUERY,
  live?: (item: z.infer<T>) => S,
): Promise<S[]> {
  // Not an async function either: inlined into every hot caller (a read below each site), its
  // frame and resume points were a large part of their optimized code (issue 33).
  try {
    const walk = new PageWalk(http, path, route, item, query, live);
    return walk.fetch().then(allPages as (first: PageOf<S>) => S[] | Promise<S[]>);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** The items of a list from its first page on (`PageWalk.all`): one function for every list read. */
function allPages<S>(first: PageOf<S>): S[] | Promise<S[]> {
  return first.walk.all(first);
}
