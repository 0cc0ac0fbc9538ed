import diagnostics from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { listAll, nextInBytes, pages, paginate } from './paginate.js';
import { clientOf } from '../../test/helpers/http-client.js';

const TOKEN = 'paginate-token-0123456789';
const Item = z.object({ id: z.string() });

/**
 * A list of `total` one-item pages ('0', '1', …; `next` names the one after, or `loop` names it
 * once more), whose page `bad` fails the item check; counts the requests it is sent.
 */
async function list(options: { total: number; bad?: number; loop?: string }) {
  const served = { requests: 0 };
  const server = createServer((req, res) => {
    served.requests += 1;
    const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? '0');
    const next = page + 1 < options.total ? String(page + 1) : options.loop;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        items: page === options.bad ? [{ nope: 1 }] : [{ id: `e${page}` }],
        next: next === undefined ? null : { page: next },
      }),
    );
  });
  const http = await clientOf(server, { token: TOKEN, maxAttempts: 1 });
  return { http, served };
}

type Http = Parameters<typeof listAll>[0];

/** A reader of `pages` that stops after the first page: one page taken. */
async function firstPageOnly(http: Http): Promise<number> {
  for await (const page of pages(http, '/x', '/x', Item)) if (page.length > 0) break;
  return 1;
}

describe('a list read asks for at most one page beyond what its reader took (the page asked for ahead)', () => {
  const cases = [
    {
      name: 'a reader that stops after the first page',
      total: 50,
      read: firstPageOnly,
    },
    {
      name: 'a list whose third page fails its check',
      total: 50,
      bad: 2,
      read: async (http: Http) => {
        await expect(listAll(http, '/x', '/x', Item)).rejects.toThrow(/items/);
        return 3;
      },
    },
    {
      name: 'a list that loops back to a page it named before',
      total: 3,
      loop: '1',
      read: async (http: Http) => {
        await expect(listAll(http, '/x', '/x', Item)).rejects.toThrow(/repeats a page token/);
        return 3;
      },
    },
    {
      name: 'a reader that stops after the first page of a list that loops',
      total: 3,
      loop: '1',
      read: firstPageOnly,
    },
    {
      name: 'a one-at-a-time reader (the audit log) that stops after the first item: no page ahead',
      total: 50,
      extra: 0,
      read: async (http: Http) => {
        for await (const item of paginate(http, '/x', '/x', Item)) if (item.id) break;
        return 1;
      },
    },
  ];
  it.each(cases)('$name', async ({ total, bad, loop, read, extra = 1 }) => {
    const { http, served } = await list({
      total,
      ...(bad !== undefined ? { bad } : {}),
      ...(loop ? { loop } : {}),
    });
    const taken = await read(http);
    // Every request sent is answered before the client closes: a chain running on would show here.
    await http.close();
    expect(served.requests).toBeGreaterThanOrEqual(taken);
    expect(served.requests).toBeLessThanOrEqual(taken + extra);
  });
});

describe('a large page’s next page, asked for from its bytes before they are parsed', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Three pages of 500 items (about 20 kB each), `next` written where `at` says. */
  async function bigList(at: 'last' | 'first' | 'twice') {
    const requested: string[] = [];
    const server = createServer((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? '0');
      requested.push(`page ${page}`);
      const items = Array.from({ length: 500 }, (_, i) => ({ id: `e${page}-${i}`, title: 'x'.repeat(24) }));
      const next = page < 2 ? { page: String(page + 1) } : null;
      res.writeHead(200, { 'content-type': 'application/json' });
      // `twice`: a first `next` that a second one (`null`, the one JSON.parse keeps) overrides.
      if (at === 'twice')
        return res.end(`{"next":{"page":"2"},"items":${JSON.stringify(items)},"next":null}`);
      res.end(JSON.stringify(at === 'last' ? { items, next } : { next, items }));
    });
    const http = await clientOf(server, { token: TOKEN, maxAttempts: 1 });
    return { http, requested };
  }

  it.each(['last', 'first'] as const)(
    'writes the request for the next page before parsing the page (next written %s)',
    async (at) => {
      const { http } = await bigList(at);
      // The order of the client's writes of the pages' requests and its parses of their text.
      const seen: string[] = [];
      const written = (m: unknown) => {
        const page = /[?&]page=(\d)/.exec((m as { request: { path: string } }).request.path)?.[1] ?? '0';
        seen.push(`page ${page}`);
      };
      diagnostics.subscribe('undici:client:sendHeaders', written);
      onTestFinished(() => {
        diagnostics.unsubscribe('undici:client:sendHeaders', written);
      });
      const parse = JSON.parse;
      vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof parse>[1]) => {
        const page = /"id":"e(\d)-0"/.exec(text)?.[1];
        if (page !== undefined) seen.push(`parsed ${page}`);
        return parse(text, reviver) as unknown;
      });
      const items = await listAll(http, '/x', '/x', Item);
      expect(items).toHaveLength(1500);
      // Before, each page was parsed, then the next one asked for.
      expect(seen).toEqual(['page 0', 'page 1', 'parsed 0', 'page 2', 'parsed 1', 'parsed 2']);
    },
  );

  it('takes the next page the parsed answer names, not the one its bytes seemed to', async () => {
    const { http, requested } = await bigList('twice');
    const items = await listAll(http, '/x', '/x', Item);
    await http.close();
    // The bytes' first `next` was asked for ahead (one request more), the parsed answer has none.
    expect(items).toHaveLength(500);
    expect(requested).toEqual(['page 0', 'page 2']);
  });

  /**
   * A list of `total` large pages whose first page's bytes name a page the list does not have
   * (`bogus`, the root's first member) before the one its parse keeps (a second `next`).
   */
  async function listWithAWrongGuess(total: number) {
    const requested: string[] = [];
    const server = createServer((req, res) => {
      const page = new URL(req.url!, 'http://x').searchParams.get('page') ?? '0';
      requested.push(page);
      const items = JSON.stringify(
        Array.from({ length: 500 }, (_, i) => ({ id: `e${page}-${i}`, title: 'x'.repeat(24) })),
      );
      const next = Number(page) + 1 < total ? JSON.stringify({ page: String(Number(page) + 1) }) : 'null';
      res.writeHead(200, { 'content-type': 'application/json' });
      if (page === '0') return res.end(`{"next":{"page":"bogus"},"next":${next},"items":${items}}`);
      res.end(`{"items":${items},"next":${next}}`);
    });
    const http = await clientOf(server, { token: TOKEN, maxAttempts: 1, maxPages: 3 });
    return { http, requested };
  }

  it.each([
    { name: 'a list of exactly maxPages pages reads whole', total: 3, read: 1500 },
    { name: 'a list of one page more still breaks the bound', total: 4, read: 'more than 3 pages' },
  ])('a wrong guess costs a request, not a page of maxPages (3): $name', async ({ total, read }) => {
    const { http, requested } = await listWithAWrongGuess(total);
    const got = await listAll(http, '/x', '/x', Item).then(
      (items) => items.length,
      (error: Error) => error.message,
    );
    await http.close();
    if (typeof read === 'number') expect(got).toBe(read);
    else expect(got).toContain(read);
    // The guess was asked for (and dropped); the pages after it were asked for ahead and taken.
    expect(requested).toEqual(['0', 'bogus', '1', '2']);
  });

  it('finds the token only at the root’s end or start, and only a plain one', () => {
    const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
    expect(nextInBytes(bytes({ items: [], next: { page: 'abc_-=' } }))).toBe('abc_-=');
    expect(nextInBytes(bytes({ next: { page: 'p2' }, items: [1] }))).toBe('p2');
    expect(nextInBytes(bytes({ items: [], next: null }))).toBeUndefined();
    expect(nextInBytes(bytes({ items: [{ next: { page: 'inner' } }] }))).toBeUndefined();
    expect(nextInBytes(bytes({ items: [], x: '"next":{"page":"s"}}' }))).toBeUndefined();
    expect(nextInBytes(bytes({ items: [], next: { page: 'é' } }))).toBeUndefined();
    expect(nextInBytes(bytes({ items: [], next: { page: 'p', more: 1 } }))).toBeUndefined();
  });
});

describe('the query of each page', () => {
  it("asks a list's first page with the limit alone (or its own query), its later pages with their token", async () => {
    const urls: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      urls.push(`${url.pathname}${url.search}`);
      const next = url.searchParams.get('page') === null ? { page: 'p2' } : null;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ id: 'e' }], next }));
    });
    const http = await clientOf(server, { token: TOKEN, concurrency: 1, maxAttempts: 1 });
    // One after the other: the first page's query is one object for every list read without a
    // query, and a list's later pages (or another list's query) must not change it.
    expect(await listAll(http, '/a', '/a', Item)).toHaveLength(2);
    expect(await listAll(http, '/b', '/b', Item, { nested: true })).toHaveLength(2);
    expect(await listAll(http, '/c', '/c', Item)).toHaveLength(2);
    expect(urls).toEqual([
      '/v1/a?limit=1000',
      '/v1/a?limit=1000&page=p2',
      '/v1/b?limit=1000&nested=true',
      '/v1/b?limit=1000&nested=true&page=p2',
      '/v1/c?limit=1000',
      '/v1/c?limit=1000&page=p2',
    ]);
  });
});
