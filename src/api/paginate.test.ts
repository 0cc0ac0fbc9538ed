import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listAll, pages, paginate } from './paginate.js';
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
