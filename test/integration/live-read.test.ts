import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { Emulator } from '../../src/emulator/server.js';
import { readLive, readOrganization } from '../../src/live/read.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { baseSeed, client, TOKEN, withEmulator } from '../helpers/emulator.js';
import { teamKind } from '../../src/kinds/team.js';

let emu: Emulator | undefined;
let api: ApiClient | undefined;
afterEach(async () => {
  await api?.close();
  await emu?.close();
  api = undefined;
  emu = undefined;
});

const policy = { prune: false, maxDeletes: 10 };

function bigSeed(teams: number) {
  const seed = baseSeed();
  (seed.organizations as any[])[0].teams = Array.from({ length: teams }, (_, i) => ({
    title: `Team ${i}`,
    members: ['user_a'],
  }));
  return seed;
}

describe('live read', () => {
  it('counts a failed list read as done, and a progress callback that throws fails the read', async () => {
    emu = await withEmulator({ seed: bigSeed(3) });
    emu.setFaults({ rate: 1, statuses: [404] });
    api = client(emu);
    const seen: { listsDone: number; listsStarted: number }[] = [];
    const failed = await readLive(api, { organizations: [{ id: 'org_t', policy, teams: [] }] }, (p) =>
      seen.push(p),
    );
    expect(failed.organizations[0]).toHaveProperty('readError');
    // The failed read is counted done too (the rejection path), so the progress line ends even.
    expect(seen.at(-1)!.listsDone).toBe(seen.at(-1)!.listsStarted);
    emu.setFaults({});
    const thrown = await readLive(api, { organizations: [{ id: 'org_t', policy, teams: [] }] }, () => {
      throw new Error('progress broke');
    });
    expect(thrown.organizations[0]).toMatchObject({ readError: 'progress broke' });
  });

  it('reads 2,500 teams across pages of 1000, one request per page', async () => {
    emu = await withEmulator({ seed: bigSeed(2500) });
    api = client(emu);
    const live = await readLive(api, { organizations: [{ id: 'org_t', policy, teams: [] }] });
    expect(live.organizations[0]!.teams).toHaveLength(2500);
    expect(new Set(live.organizations[0]!.teams!.map((t) => t.title)).size).toBe(2500);
    const requests = emu.requests();
    expect(requests.map((r) => r.path)).toEqual(Array(3).fill('/v1/orgs/org_t/teams'));
    expect(requests.every((r) => r.query.includes('limit=1000'))).toBe(true);
  });

  it("starts the reads below a page's items as that page arrives, not after the whole list", async () => {
    emu = await withEmulator({ seed: bigSeed(2500) });
    // Every answer 50 ms late: the third teams page cannot be asked for before the second arrived.
    emu.setFaults({ latencyMs: 50 });
    api = client(emu);
    const live = await readLive(api, {
      organizations: [{ id: 'org_t', policy, teams: [{ title: 'Team 0', members: [] }] }],
    });
    expect(live.organizations[0]!.teams!.find((t) => t.title === 'Team 0')!.members).toHaveLength(1);
    const paths = emu.requests().map((r) => r.path);
    const members = paths.findIndex((p) => p.endsWith('/members'));
    const lastPage = paths.lastIndexOf('/v1/orgs/org_t/teams');
    expect(paths.filter((p) => p === '/v1/orgs/org_t/teams')).toHaveLength(3);
    // Team 0 is on the first page: its members are read while the later pages are.
    expect(members).toBeGreaterThanOrEqual(0);
    expect(members).toBeLessThan(lastPage);
  });

  it("asks for a list's next page as soon as its answer names it, before the page's items are handed over", async () => {
    emu = await withEmulator({ seed: bigSeed(2500) });
    api = client(emu);
    const http = api.http;
    // The requests queued or running when each page is handed over: the next page's is one of them.
    const pendingAtPage: number[] = [];
    const teams = teamKind.reads[0]!.list('org_t');
    await api.listPages(teams, () => pendingAtPage.push(http.pending));
    // Before, the next page was asked for only once the reader had done with the page: 0, 0, 0.
    expect(pendingAtPage).toEqual([1, 1, 0]);
    expect(emu.requests().map((r) => r.path)).toEqual(Array(3).fill('/v1/orgs/org_t/teams'));
  });

  it("lets the reads below different lists take turns instead of one list's reads all going first", async () => {
    const seed = bigSeed(12);
    (seed.organizations as any[])[0].sites = Array.from({ length: 12 }, (_, i) => ({
      title: `Site ${i}`,
      sections: [{ title: 'A', path: 'a', siteSpaces: [{ space: 'space_1' }] }],
    }));
    emu = await withEmulator({ seed });
    emu.setFaults({ latencyMs: 20 });
    api = client(emu, { concurrency: 2 });
    await readLive(api, {
      organizations: [
        {
          id: 'org_t',
          policy,
          teams: Array.from({ length: 12 }, (_, i) => ({ title: `Team ${i}`, members: [] })),
          sites: Array.from({ length: 12 }, (_, i) => ({ title: `Site ${i}`, sections: [] })),
        },
      ],
    });
    // The two lists come first; then, of the next 12 reads, neither kind has them all.
    const kinds = emu
      .requests()
      .slice(2)
      .map((r) => (r.path.endsWith('/members') ? 'members' : 'site'));
    expect(kinds.filter((k) => k === 'members')).toHaveLength(12);
    const first = kinds.slice(0, 12);
    expect(first.filter((k) => k === 'members').length).toBeGreaterThanOrEqual(3);
    expect(first.filter((k) => k === 'site').length).toBeGreaterThanOrEqual(3);
  });

  it("ends the reads below the sites before the teams' when the plan diffs the sites ahead", async () => {
    const seed = bigSeed(30);
    (seed.organizations as any[])[0].sites = Array.from({ length: 30 }, (_, i) => ({
      title: `Site ${i}`,
      sections: [{ title: 'A', path: 'a', siteSpaces: [{ space: 'space_1' }] }],
    }));
    emu = await withEmulator({ seed });
    api = client(emu, { concurrency: 2 });
    const desired = {
      organizations: [
        {
          id: 'org_t',
          policy,
          teams: Array.from({ length: 30 }, (_, i) => ({ title: `Team ${i}`, members: [] })),
          sites: Array.from({ length: 30 }, (_, i) => ({ title: `Site ${i}`, sections: [] })),
        },
      ],
    };
    const lastOf = (paths: string[], end: string) => paths.findLastIndex((p) => p.endsWith(end));
    // Read for a plan (the lists handed over as read, `onListRead`): a site's reads below weigh 1.5.
    await readLive(api, desired, undefined, () => undefined);
    const planned = emu.requests().map((r) => r.path);
    // The site's reads (sections, share links: 60) end while the members' (30) still have a fifth to go.
    expect(lastOf(planned, '/members')).toBe(planned.length - 1);
    expect(planned.length - 1 - lastOf(planned, '/sections')).toBeGreaterThanOrEqual(6);
    // Read for anything else (export, drift): lanes in plain proportion end together.
    await readLive(api, desired);
    const plain = emu
      .requests()
      .slice(planned.length)
      .map((r) => r.path);
    expect(plain.length - 1 - lastOf(plain, '/sections')).toBeLessThan(3);
  });

  it('reads first the lists whose items have reads below them (the first answer is the probe)', async () => {
    const seed = bigSeed(3);
    const o = (seed.organizations as any[])[0];
    o.customFields = [{ name: 'owner', type: 'text' }];
    o.sites = [{ title: 'Docs', sections: [{ title: 'A', path: 'a' }] }];
    emu = await withEmulator({ seed });
    api = client(emu, { concurrency: 2 });
    await readLive(api, {
      organizations: [
        {
          id: 'org_t',
          policy,
          customFields: [],
          teams: [{ title: 'Team 0', members: [] }],
          sites: [{ title: 'Docs', sections: [] }],
        },
      ],
    });
    const paths = emu.requests().map((r) => r.path);
    // Until the first answer, only the first requests (FIRST_REQUESTS, here the client's two) are
    // in flight: a plain list among them would delay every read below the teams and the sites.
    expect(paths.slice(0, 2).sort()).toEqual(['/v1/orgs/org_t/sites', '/v1/orgs/org_t/teams']);
    expect(paths.indexOf('/v1/orgs/org_t/custom-fields')).toBeGreaterThan(1);
  });

  it("writes its first request before the config's walks that can wait for an answer", async () => {
    // What the config's references name (a walk over every entry) and what it wants below each list's
    // items (`prepare`) are a large config's cold start: its first request is written before them.
    emu = await withEmulator({ seed: bigSeed(3) });
    api = client(emu);
    let written = 0;
    const sent = api.http.budget.sent.bind(api.http.budget);
    api.http.budget.sent = () => {
      written += 1;
      return sent();
    };
    const seen: Record<string, number> = {};
    const { referenceTargets } = teamKind;
    const read = teamKind.reads[0]!;
    const { prepare } = read.children!;
    // The references' targets (the live read's scope): a walk over every entry of the config.
    teamKind.referenceTargets = (team, org) => ((seen.references ??= written), referenceTargets!(team, org));
    read.children!.prepare = (desired) => ((seen.prepare ??= written), prepare(desired));
    try {
      const live = await readLive(api, {
        organizations: [
          { id: 'org_t', policy, teams: [{ title: 'Team 0', members: [{ user: 'user_a' }] as never }] },
        ],
      });
      expect(live.organizations[0]!.teams!.find((t) => t.title === 'Team 0')!.members).toHaveLength(1);
    } finally {
      teamKind.referenceTargets = referenceTargets;
      read.children!.prepare = prepare;
    }
    expect(seen).toEqual({ references: 1, prepare: 1 });
  });

  it('costs exactly one request per list page plus one per named space', async () => {
    const seed = baseSeed();
    const o = (seed.organizations as any[])[0];
    o.customFields = [{ name: 'owner', type: 'text' }];
    o.teams = [{ title: 'Writers', members: ['user_a'] }, { title: 'Other' }];
    o.sites = [
      {
        title: 'Docs',
        sections: [{ title: 'A', path: 'a', siteSpaces: [{ space: 'space_1' }] }],
        sectionGroups: [{ title: 'G' }],
        shareLinks: [{ name: 'p' }],
      },
      { title: 'Handbook', siteSpaces: [{ space: 'space_2' }] },
      { title: 'Unmanaged site' },
    ];
    emu = await withEmulator({ seed });
    api = client(emu);
    const desired: DesiredState = {
      organizations: [
        {
          id: 'org_t',
          policy,
          customFields: [],
          spaces: [
            { id: 'space_1', customFields: {} },
            { id: 'space_2', customFields: {} },
          ],
          teams: [{ title: 'Writers', members: [] }],
          sites: [
            { title: 'Docs', sections: [], sectionGroups: [], shareLinks: [] },
            { title: 'Handbook', spaces: [] },
          ],
        },
      ],
    };
    const live = await readLive(api, desired);
    const paths = emu
      .requests()
      .map((r) => r.path)
      .sort();
    // 1 custom fields + 2 spaces + 1 teams + 1 members (only the managed team) + 1 sites
    // + Docs: sections, groups, share links + Handbook: site spaces; the unmanaged site costs nothing more.
    expect(paths).toEqual(
      [
        '/v1/orgs/org_t/custom-fields',
        '/v1/spaces/space_1/custom-fields',
        '/v1/spaces/space_2/custom-fields',
        '/v1/orgs/org_t/teams',
        `/v1/orgs/org_t/teams/${live.organizations[0]!.teams!.find((t) => t.title === 'Writers')!.id}/members`,
        '/v1/orgs/org_t/sites',
        `/v1/orgs/org_t/sites/${live.organizations[0]!.sites![0]!.id}/sections`,
        `/v1/orgs/org_t/sites/${live.organizations[0]!.sites![0]!.id}/section-groups`,
        `/v1/orgs/org_t/sites/${live.organizations[0]!.sites![0]!.id}/share-links`,
        `/v1/orgs/org_t/sites/${live.organizations[0]!.sites![1]!.id}/site-spaces`,
      ].sort(),
    );
    expect(emu.requests().every((r) => r.method === 'GET')).toBe(true);
    const docs = live.organizations[0]!.sites![0]!;
    expect(docs.sections![0]).toMatchObject({
      path: 'a',
      default: true,
      spaces: [{ space: 'space_1', default: true }],
    });
    expect(docs.shareLinks![0]).toEqual({ id: expect.any(String), name: 'p', active: true });
    expect(JSON.stringify(live)).not.toContain('share=');
  });

  it('reads under a low rate limit (20 per window) without a 429 and without error', async () => {
    emu = await withEmulator({ seed: bigSeed(40), rateLimit: { limit: 20, windowSeconds: 1 } });
    api = client(emu, { concurrency: 4 });
    const live = await readLive(api, {
      organizations: [
        {
          id: 'org_t',
          policy,
          teams: Array.from({ length: 40 }, (_, i) => ({ title: `Team ${i}`, members: [] })),
        },
      ],
    });
    expect(live.organizations[0]!.teams!.every((t) => t.members!.length === 1)).toBe(true);
    expect(emu.requests()).toHaveLength(41);
    expect(emu.requests().filter((r) => r.status === 429)).toHaveLength(0);
  });

  it('completes under 20 % injected 5xx answers', async () => {
    emu = await withEmulator({ seed: bigSeed(30) });
    emu.setFaults({ rate: 0.2, statuses: [500, 502, 503], seed: 42 });
    api = client(emu);
    const live = await readLive(api, {
      organizations: [
        {
          id: 'org_t',
          policy,
          teams: Array.from({ length: 30 }, (_, i) => ({ title: `Team ${i}`, members: [] })),
        },
      ],
    });
    expect(live.organizations[0]!.teams!.filter((t) => t.members?.length === 1)).toHaveLength(30);
    expect(emu.requests().some((r) => r.status >= 500)).toBe(true);
  });

  it('answers a wrong token with an unauthorized error that never shows the token', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const secret = 'wrong-secret-token-value';
    api = new ApiClient({ apiUrl: emu.url, token: secret });
    const error = await readOrganization(api, { id: 'org_t', policy, teams: [] }).catch((e: unknown) => e);
    const viaAll = await readLive(api, { organizations: [{ id: 'org_t', policy, teams: [] }] });
    expect(viaAll.organizations[0]!.readError).toMatch(/unauthorized/);
    expect(viaAll.organizations[0]!.readError).not.toContain(secret);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'unauthorized',
      status: 401,
      method: 'GET',
      route: '/orgs/{org}/teams',
    });
    expect(String((error as Error).message)).toMatch(/unauthorized/);
    expect(
      JSON.stringify(error) + String((error as Error).message) + String((error as Error).stack),
    ).not.toContain(secret);
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });
});

describe('live read against a misbehaving server', () => {
  async function serve(
    handler: (url: URL) => unknown,
  ): Promise<{ url: string; close: () => Promise<void>; hits: () => number }> {
    let hits = 0;
    const server = createServer((req, res) => {
      hits += 1;
      const body = JSON.stringify(handler(new URL(req.url ?? '/', 'http://x')));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    return {
      url: `http://127.0.0.1:${port}`,
      hits: () => hits,
      close: () => new Promise((r) => server.close(() => r())),
    };
  }

  it('stops on a page token that repeats instead of looping', async () => {
    const srv = await serve(() => ({ items: [{ id: 't1', title: 'T' }], next: { page: 'same' } }));
    api = new ApiClient({ apiUrl: srv.url, token: 't0ken-xyz' });
    const error = await api.list(teamKind.reads[0]!.list('org')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-response' });
    expect((error as ApiError).apiMessage).toContain('repeats');
    expect(srv.hits()).toBe(2);
    await srv.close();
  });

  it('reports a malformed answer as invalid-response naming the field', async () => {
    const srv = await serve(() => ({ items: [{ title: 'no id' }] }));
    api = new ApiClient({ apiUrl: srv.url, token: 't0ken-xyz' });
    const error = await api.list(teamKind.reads[0]!.list('org')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-response', route: '/orgs/{org}/teams' });
    expect((error as ApiError).apiMessage).toContain('items.0.id');
    await srv.close();
  });
});
