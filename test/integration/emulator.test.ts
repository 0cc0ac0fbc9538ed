import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { baseSeed, call, withEmulator } from '../helpers/emulator.js';

let emu: Emulator;
afterEach(async () => emu?.close());

const org = '/orgs/org_t';

async function siteWithSection(e: Emulator) {
  const site = (await call(e, 'POST', `${org}/sites`, { title: 'Docs' })).body;
  const section = (
    await call(e, 'POST', `${org}/sites/${site.id}/sections`, { spaceId: 'space_1', title: 'Guides' })
  ).body;
  return { site, section };
}

describe('emulator: authentication and error shapes', () => {
  it('answers 401 without or with a wrong bearer token, in the error shape', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    for (const token of [null, 'wrong']) {
      const res = await call(emu, 'GET', '/orgs', undefined, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    }
  });

  it('answers 404 for unknown ids and unknown routes', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const unknownOrg = await call(emu, 'GET', '/orgs/org_nope');
    expect(unknownOrg.status).toBe(404);
    expect(unknownOrg.body.error).toMatchObject({ code: 404, message: expect.stringContaining('org_nope') });
    expect((await call(emu, 'GET', `${org}/sites/site_nope/sections`)).status).toBe(404);
    expect((await call(emu, 'GET', '/nothing/here')).status).toBe(404);
  });

  it('answers 400 naming the field for a bad body and for invalid JSON', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const bad = await call(emu, 'PUT', `${org}/teams`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^title/);
    const invalid = await call(emu, 'PUT', `${org}/teams`, '{not json');
    expect(invalid.status).toBe(400);
  });
});

describe('emulator: pagination', () => {
  it('pages with opaque next tokens, a stable order and a count; limit above 1000 is 400', async () => {
    const seed = baseSeed();
    (seed.organizations as any[])[0].teams = Array.from({ length: 25 }, (_, i) => ({ title: `Team ${i}` }));
    emu = await withEmulator({ seed });
    const titles: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await call(emu, 'GET', `${org}/teams?limit=10${page ? `&page=${page}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(25);
      titles.push(...res.body.items.map((t: any) => t.title));
      page = res.body.next?.page;
      pages += 1;
    } while (page);
    expect(pages).toBe(3);
    expect(titles).toEqual(Array.from({ length: 25 }, (_, i) => `Team ${i}`));
    expect((await call(emu, 'GET', `${org}/teams?limit=1000`)).status).toBe(200);
    expect((await call(emu, 'GET', `${org}/teams?limit=1001`)).status).toBe(400);
    expect((await call(emu, 'GET', `${org}/teams?page=garbage`)).status).toBe(400);
  });
});

describe('emulator: limits just inside and just outside', () => {
  const cases: [string, string, (e: Emulator, ids: any) => string, string, unknown, unknown][] = [
    ['site title', 'POST', () => `${org}/sites`, 'title', 'ab', 'a'],
    ['site title max', 'POST', () => `${org}/sites`, 'title', 'x'.repeat(128), 'x'.repeat(129)],
    [
      'site basename',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}`,
      'basename',
      'x'.repeat(100),
      'x'.repeat(101),
    ],
    [
      'site proxy',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}`,
      'proxy',
      'company.com/docs',
      'not a proxy',
    ],
    [
      'section title (create max 64)',
      'POST',
      (_e, i) => `${org}/sites/${i.site.id}/sections`,
      'title',
      'x'.repeat(64),
      'x'.repeat(65),
    ],
    [
      'section title (update 2..128)',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}/sections/${i.section.id}`,
      'title',
      'ab',
      'a',
    ],
    [
      'section path',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}/sections/${i.section.id}`,
      'path',
      'x'.repeat(100),
      'x'.repeat(101),
    ],
    [
      'section condition',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}/sections/${i.section.id}`,
      'condition',
      'x'.repeat(1024),
      'x'.repeat(1025),
    ],
    [
      'section condition empty',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}/sections/${i.section.id}`,
      'condition',
      'x',
      '',
    ],
    [
      'section description',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}/sections/${i.section.id}`,
      'description',
      'x'.repeat(256),
      'x'.repeat(257),
    ],
    [
      'section icon',
      'PATCH',
      (_e, i) => `${org}/sites/${i.site.id}/sections/${i.section.id}`,
      'icon',
      'x'.repeat(50),
      'x'.repeat(51),
    ],
    [
      'group title',
      'POST',
      (_e, i) => `${org}/sites/${i.site.id}/section-groups`,
      'title',
      'x'.repeat(100),
      'x'.repeat(101),
    ],
    [
      'share link name',
      'POST',
      (_e, i) => `${org}/sites/${i.site.id}/share-links`,
      'name',
      'x'.repeat(50),
      'x'.repeat(51),
    ],
    ['team title', 'PUT', () => `${org}/teams`, 'title', 'x'.repeat(64), 'x'.repeat(65)],
    ['team title empty', 'PUT', () => `${org}/teams`, 'title', 'x', ''],
    ['custom field name pattern', 'POST', () => `${org}/custom-fields`, 'name', 'ok_name-1', 'Not OK'],
    [
      'custom field name length',
      'POST',
      () => `${org}/custom-fields`,
      'name',
      'x'.repeat(50),
      'x'.repeat(51),
    ],
    ['custom field title', 'POST', () => `${org}/custom-fields`, 'title', 'x'.repeat(100), 'x'.repeat(101)],
    [
      'custom field description',
      'POST',
      () => `${org}/custom-fields`,
      'description',
      'x'.repeat(200),
      'x'.repeat(201),
    ],
    [
      'custom field options count',
      'POST',
      () => `${org}/custom-fields`,
      'options',
      Array.from({ length: 50 }, (_, i) => `o${i}`),
      Array.from({ length: 51 }, (_, i) => `o${i}`),
    ],
  ];
  it.each(cases)('%s', async (_name, method, path, field, inside, outside) => {
    emu = await withEmulator({ seed: baseSeed() });
    const ids = await siteWithSection(emu);
    const extra = (value: unknown, n: number): Record<string, unknown> => {
      if (path(emu, ids).endsWith('/custom-fields'))
        return { name: field === 'name' ? value : `f${n}`, type: 'text', [field]: value };
      if (path(emu, ids).endsWith('/sections') && method === 'POST')
        return { spaceId: `space_${n + 2}`, [field]: value };
      return { [field]: value };
    };
    const ok = await call(emu, method, path(emu, ids), extra(inside, 1));
    expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
    const bad = await call(emu, method, path(emu, ids), extra(outside, 2));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain(field);
  });
});

describe('emulator: endpoint families', () => {
  it('sites, sections, site spaces, groups, moves and defaults', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const { site, section } = await siteWithSection(emu);
    expect(site).toMatchObject({
      object: 'site',
      title: 'Docs',
      visibility: 'public',
      published: false,
      siteSpaces: 0,
    });
    expect(section).toMatchObject({
      object: 'site-section',
      default: true,
      siteSpaces: [{ object: 'site-space', space: { id: 'space_1' } }],
    });
    const s2 = (
      await call(emu, 'POST', `${org}/sites/${site.id}/sections`, { spaceId: 'space_2', title: 'API' })
    ).body;
    expect((await call(emu, 'POST', `${org}/sites/${site.id}/sections`, { spaceId: 'space_2' })).status).toBe(
      409,
    );
    const ss = await call(emu, 'POST', `${org}/sites/${site.id}/site-spaces`, {
      spaceId: 'space_3',
      sectionId: s2.id,
    });
    expect(ss.status).toBe(201);
    expect(
      (
        await call(emu, 'PATCH', `${org}/sites/${site.id}/site-spaces/${ss.body.id}`, {
          path: 'v2',
          condition: 'visitor.a',
        })
      ).body,
    ).toMatchObject({ path: 'v2', condition: 'visitor.a' });
    expect(
      (
        await call(emu, 'PATCH', `${org}/sites/${site.id}/sections/${s2.id}`, {
          defaultSiteSpace: ss.body.id,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(emu, 'GET', `${org}/sites/${site.id}/site-spaces?default=true`)).body.items.map(
        (x: any) => x.id,
      ),
    ).toContain(ss.body.id);
    const moved = await call(emu, 'POST', `${org}/sites/${site.id}/sections/${s2.id}/move`, {
      position: { before: { type: 'site-section', siteSection: section.id } },
    });
    expect(moved.status).toBe(200);
    expect(
      (await call(emu, 'GET', `${org}/sites/${site.id}/sections`)).body.items.map((x: any) => x.id),
    ).toEqual([s2.id, section.id]);
    expect(
      (
        await call(emu, 'POST', `${org}/sites/${site.id}/sections/${s2.id}/move`, {
          position: { before: { type: 'site-space', siteSection: section.id } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(emu, 'PATCH', `${org}/sites/${site.id}`, {
          defaultSiteSection: s2.id,
          basename: 'docs',
          proxy: 'company.com/docs',
          agentsContext: 'excluded',
          adaptiveContent: { enabled: true },
        })
      ).body,
    ).toMatchObject({
      basename: 'docs',
      proxy: { origin: 'company.com/docs' },
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
    });
    expect(
      (await call(emu, 'GET', `${org}/sites/${site.id}/sections`)).body.items.find((x: any) => x.id === s2.id)
        .default,
    ).toBe(true);
    expect((await call(emu, 'PATCH', `${org}/sites/${site.id}`, { proxy: null })).body.proxy).toBeUndefined();
    const sectionCondition = await call(emu, 'PATCH', `${org}/sites/${site.id}/sections/${s2.id}`, {
      condition: 'x',
    });
    expect(sectionCondition.body.condition).toBe('x');
    expect(
      (await call(emu, 'PATCH', `${org}/sites/${site.id}/sections/${s2.id}`, { title: 'API docs' })).body
        .condition,
    ).toBe('x');
    expect(
      (await call(emu, 'PATCH', `${org}/sites/${site.id}/sections/${s2.id}`, { condition: null })).body
        .condition,
    ).toBeUndefined();

    const group = await call(emu, 'POST', `${org}/sites/${site.id}/section-groups`, {
      title: 'Products',
      sections: [section.id],
    });
    expect(group.status).toBe(201);
    expect(group.body.sections.map((x: any) => x.id)).toEqual([section.id]);
    expect(
      (
        await call(emu, 'POST', `${org}/sites/${site.id}/section-groups/${group.body.id}/sections`, {
          sectionId: s2.id,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(
          emu,
          'DELETE',
          `${org}/sites/${site.id}/section-groups/${group.body.id}/sections/${section.id}`,
        )
      ).status,
    ).toBe(205);
    const g2 = (await call(emu, 'POST', `${org}/sites/${site.id}/section-groups`, { title: 'More' })).body;
    expect(
      (
        await call(emu, 'POST', `${org}/sites/${site.id}/section-groups/${g2.id}/move`, {
          position: { before: { type: 'site-section', id: group.body.id } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(emu, 'GET', `${org}/sites/${site.id}/section-groups`)).body.items.map((g: any) => g.title),
    ).toEqual(['More', 'Products']);
    expect((await call(emu, 'DELETE', `${org}/sites/${site.id}/section-groups/${g2.id}`)).status).toBe(205);
    expect((await call(emu, 'DELETE', `${org}/sites/${site.id}/site-spaces/${ss.body.id}`)).status).toBe(205);
    expect((await call(emu, 'GET', `${org}/sites/${site.id}/adaptive-schema`)).body.object).toBe(
      'site-adaptive-schema',
    );
    expect(
      (
        await call(emu, 'PUT', `${org}/sites/${site.id}/adaptive-schema`, {
          jsonSchema: { type: 'object', properties: {} },
        })
      ).status,
    ).toBe(200);
    expect((await call(emu, 'GET', `${org}/sites/${site.id}/published`)).body.object).toBe(
      'published-content-site',
    );
    expect((await call(emu, 'GET', `${org}/sites?space=space_1`)).body.items).toHaveLength(1);
    expect((await call(emu, 'GET', `${org}/sites?published=true`)).body.items).toHaveLength(0);
    expect((await call(emu, 'DELETE', `${org}/sites/${site.id}`)).status).toBe(205);
    expect((await call(emu, 'GET', `${org}/sites`)).body.items).toHaveLength(0);
  });

  it('share links keep their URL out of lists of nothing but carry it in the API shape', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const { site } = await siteWithSection(emu);
    const link = await call(emu, 'POST', `${org}/sites/${site.id}/share-links`, { name: 'preview' });
    expect(link.body).toMatchObject({
      object: 'share-link',
      name: 'preview',
      active: true,
      urls: { published: expect.stringContaining('share=') },
    });
    expect(
      (await call(emu, 'PATCH', `${org}/sites/${site.id}/share-links/${link.body.id}`, { active: false }))
        .body.active,
    ).toBe(false);
    expect((await call(emu, 'DELETE', `${org}/sites/${site.id}/share-links/${link.body.id}`)).status).toBe(
      205,
    );
  });

  it('teams and team members: bulk PUT with add, remove and memberships, by id or e-mail', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const team = (await call(emu, 'PUT', `${org}/teams`, { title: 'Writers', members: ['user_a'] })).body;
    expect(team).toMatchObject({ object: 'team', title: 'Writers', members: 1 });
    const put = await call(emu, 'PUT', `${org}/teams/${team.id}/members`, {
      add: ['b@example.com', 'user_c', 'user_d'],
      remove: ['user_d'],
      memberships: { 'b@example.com': { role: 'owner' } },
    });
    expect(put.status).toBe(204);
    const members = (await call(emu, 'GET', `${org}/teams/${team.id}/members`)).body.items;
    expect(members.map((m: any) => [m.organization.user.id, m.team.role])).toEqual([
      ['user_a', 'member'],
      ['user_b', 'owner'],
      ['user_c', 'member'],
    ]);
    expect((await call(emu, 'PUT', `${org}/teams/${team.id}/members/user_d`, { role: 'owner' })).status).toBe(
      204,
    );
    expect((await call(emu, 'DELETE', `${org}/teams/${team.id}/members/user_d`)).status).toBe(204);
    expect(
      (await call(emu, 'PUT', `${org}/teams/${team.id}/members`, { add: ['nobody@example.com'] })).status,
    ).toBe(400);
    expect((await call(emu, 'GET', `${org}/teams?title=writ`)).body.items).toHaveLength(1);
    expect((await call(emu, 'GET', `${org}/teams?owner=user_b`)).body.items).toHaveLength(1);
    expect((await call(emu, 'PATCH', `${org}/teams/${team.id}`, { title: 'Editors' })).body.title).toBe(
      'Editors',
    );
    expect((await call(emu, 'DELETE', `${org}/teams/${team.id}`)).status).toBe(204);
  });

  it('custom fields: duplicate name is 409; values are checked against the field type', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    expect((await call(emu, 'POST', `${org}/custom-fields`, { name: 'owner', type: 'text' })).status).toBe(
      201,
    );
    expect((await call(emu, 'POST', `${org}/custom-fields`, { name: 'owner', type: 'text' })).status).toBe(
      409,
    );
    expect(
      (
        await call(emu, 'POST', `${org}/custom-fields`, {
          name: 'tier',
          type: 'select:single',
          options: ['a', 'b'],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(emu, 'PATCH', '/spaces/space_1/custom-fields', {
          values: { owner: { value: 'docs' }, tier: { value: 'a' } },
        })
      ).status,
    ).toBe(204);
    expect(
      (await call(emu, 'PATCH', '/spaces/space_1/custom-fields', { values: { tier: { value: 'z' } } }))
        .status,
    ).toBe(400);
    expect(
      (await call(emu, 'PATCH', '/spaces/space_1/custom-fields', { values: { nope: { value: 'z' } } }))
        .status,
    ).toBe(400);
    const values = (await call(emu, 'GET', '/spaces/space_1/custom-fields')).body;
    expect(values.map((v: any) => [v.customField.name, v.value])).toEqual([
      ['owner', 'docs'],
      ['tier', 'a'],
    ]);
    expect((await call(emu, 'PATCH', `${org}/custom-fields/owner`, { title: 'Owner' })).body.title).toBe(
      'Owner',
    );
    expect((await call(emu, 'DELETE', `${org}/custom-fields/owner`)).status).toBe(204);
    expect((await call(emu, 'GET', `${org}/custom-fields/owner`)).status).toBe(404);
  });

  it('organizations, members, collections and spaces', async () => {
    const seed = baseSeed();
    (seed.organizations as any[])[0].collections = [{ id: 'col_1', title: 'Product' }];
    (seed.organizations as any[])[0].spaces.push({ id: 'space_in', title: 'In', parent: 'col_1' });
    emu = await withEmulator({ seed });
    expect((await call(emu, 'GET', '/orgs')).body.items[0]).toMatchObject({
      object: 'organization',
      id: 'org_t',
    });
    const members = (await call(emu, 'GET', `${org}/members?role=read&order=asc`)).body.items;
    expect(members.map((m: any) => m.id)).toEqual(['user_c', 'user_d']);
    expect((await call(emu, 'GET', `${org}/members?search=b@ex`)).body.items).toHaveLength(1);
    expect((await call(emu, 'PATCH', `${org}/members/user_c`, { role: 'edit' })).body.role).toBe('edit');
    expect((await call(emu, 'GET', `${org}/collections`)).body.items[0]).toMatchObject({
      object: 'collection',
      id: 'col_1',
    });
    expect((await call(emu, 'GET', '/collections/col_1/spaces')).body.items.map((s: any) => s.id)).toEqual([
      'space_in',
    ]);
    expect((await call(emu, 'PATCH', '/spaces/space_1', { title: 'Renamed' })).body.title).toBe('Renamed');
  });
});

describe('emulator: rate limits, faults, request log, reset and persistence', () => {
  it('sends X-RateLimit headers on every answer and 429 past the limit', async () => {
    // Sliding: a clock-aligned window could start anew between two of the four calls.
    emu = await withEmulator({
      seed: baseSeed(),
      rateLimit: { limit: 3, windowSeconds: 60, model: 'sliding' },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await call(emu, 'GET', '/orgs');
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
      if (res.status === 429) {
        expect(res.body.error.code).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('injects faults through the control endpoint, logs requests, resets', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const faults = await fetch(`${emu.url}/_emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ rate: 1, statuses: [503], seed: 1 }),
    });
    expect(faults.status).toBe(200);
    expect((await call(emu, 'GET', '/orgs')).status).toBe(503);
    await fetch(`${emu.url}/_emulator/faults`, { method: 'POST', body: '{}' });
    expect((await call(emu, 'GET', '/orgs')).status).toBe(200);
    const log = (await (await fetch(`${emu.url}/_emulator/requests`)).json()) as any[];
    expect(log.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/v1/orgs', 503],
      ['GET', '/v1/orgs', 200],
    ]);
    await fetch(`${emu.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ latencyMs: 150 }) });
    const t0 = Date.now();
    await call(emu, 'GET', '/orgs');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    await fetch(`${emu.url}/_emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ rate: 1, resetConnections: true, statuses: [500], seed: 3 }),
    });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(emu, 'GET', '/orgs').then(
          (r) => r.status,
          () => 'reset',
        ),
      ),
    );
    expect(outcomes).toContain('reset');
    await fetch(`${emu.url}/_emulator/reset`, { method: 'POST', body: JSON.stringify(baseSeed(1)) });
    const state = (await (await fetch(`${emu.url}/_emulator/state`)).json()) as any;
    expect(state.organizations[0].spaces).toHaveLength(1);
    expect(emu.requests()).toHaveLength(0);
  });

  it('persists state across a restart with --data, written atomically', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-emu-'));
    const data = join(dir, 'state.json');
    emu = await withEmulator({ seed: baseSeed(), dataFile: data });
    await call(emu, 'PUT', `${org}/teams`, { title: 'Survivors' });
    await emu.close();
    expect(JSON.parse(readFileSync(data, 'utf8')).organizations[0].teams[0].title).toBe('Survivors');
    emu = await withEmulator({ dataFile: data });
    expect((await call(emu, 'GET', `${org}/teams`)).body.items.map((t: any) => t.title)).toEqual([
      'Survivors',
    ]);
  });
});
