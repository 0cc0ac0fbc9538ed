import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { until } from '../helpers/cli.js';
import { deletedIds } from '../helpers/invariants.js';
import { baseSeed, call, TOKEN, withEmulator } from '../helpers/emulator.js';

let emu: Emulator;
afterEach(async () => emu?.close());
const org = '/orgs/org_t';

describe('emulator: kinds beyond the card', () => {
  it('organization settings, member removal, the token user', async () => {
    emu = await withEmulator({ seed: { ...baseSeed(), tokenUser: 'user_b' } });
    const site = (await call(emu, 'POST', `${org}/sites`, { title: 'Docs' })).body;
    const patched = await call(emu, 'PATCH', org, {
      title: 'New title',
      hostname: 'new-host',
      defaultRole: 'read',
      defaultContent: { type: 'site', site: site.id },
      ai: true,
    });
    expect(patched.body).toMatchObject({
      title: 'New title',
      hostname: 'new-host',
      defaultRole: 'read',
      defaultContent: { type: 'site', site: site.id },
      ai: true,
    });
    expect((await call(emu, 'PATCH', org, { hostname: 'x' })).status).toBe(400);
    expect((await call(emu, 'PATCH', org, { defaultContent: { type: 'site', site: 'nope' } })).status).toBe(
      400,
    );
    expect((await call(emu, 'GET', '/user')).body).toMatchObject({ object: 'user', id: 'user_b' });
    expect((await call(emu, 'DELETE', `${org}/members/user_d`)).status).toBe(204);
    expect((await call(emu, 'GET', `${org}/members`)).body.items.map((m: any) => m.id)).not.toContain(
      'user_d',
    );
  });

  it('collections nest and move; spaces move between collections', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const a = (await call(emu, 'POST', `${org}/collections`, { title: 'A' })).body;
    const b = (await call(emu, 'POST', `${org}/collections`, { title: 'B', parent: a.id })).body;
    expect(b.parent).toBe(a.id);
    expect((await call(emu, 'POST', `/collections/${a.id}/move`, { parent: b.id })).status).toBe(400);
    expect(
      (await call(emu, 'PATCH', `/collections/${b.id}`, { description: 'd', defaultLevel: 'read' })).body,
    ).toMatchObject({ description: 'd', defaultLevel: 'read' });
    expect((await call(emu, 'POST', '/spaces/space_1/move', { parent: b.id })).body.parent).toBe(b.id);
    expect((await call(emu, 'GET', `/collections/${b.id}/spaces`)).body.items.map((s: any) => s.id)).toEqual([
      'space_1',
    ]);
    expect((await call(emu, 'DELETE', `/collections/${b.id}`)).status).toBe(205);
    expect((await call(emu, 'GET', '/spaces/space_1')).body.parent).toBe(a.id);
  });

  it('OpenAPI specs, SAML providers and translation settings', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    expect(
      (
        await call(emu, 'POST', `${org}/openapi`, {
          slug: 'pets',
          source: { url: 'https://example.com/p.yaml' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(emu, 'POST', `${org}/openapi`, {
          slug: 'Pets!',
          source: { url: 'https://example.com/p.yaml' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(emu, 'PUT', `${org}/openapi/pets`, { source: { url: 'https://example.com/v2.yaml' } })).body
        .sourceURL,
    ).toBe('https://example.com/v2.yaml');
    expect((await call(emu, 'DELETE', `${org}/openapi/pets`)).status).toBe(205);
    const team = (await call(emu, 'PUT', `${org}/teams`, { title: 'SSO' })).body;
    const saml = await call(emu, 'POST', `${org}/saml`, {
      label: 'Okta',
      certificate: 'PEM',
      defaultTeam: team.id,
      defaultRole: 'read',
    });
    expect(saml.body).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      certificate: 'PEM',
      defaultTeam: { id: team.id },
    });
    expect((await call(emu, 'POST', `${org}/saml`, { label: 'x'.repeat(31) })).status).toBe(400);
    expect(
      (await call(emu, 'PATCH', `${org}/saml/${saml.body.id}`, { ssoURL: 'https://sso.example/x' })).body
        .ssoURL,
    ).toBe('https://sso.example/x');
    expect((await call(emu, 'DELETE', `${org}/saml/${saml.body.id}`)).status).toBe(204);
    const tr = (await call(emu, 'POST', `${org}/translations`, { title: 'French' })).body;
    expect((await call(emu, 'PUT', `${org}/translations/${tr.id}`, { title: 'Français' })).body.title).toBe(
      'Français',
    );
    expect((await call(emu, 'DELETE', `${org}/translations/${tr.id}`)).status).toBe(205);
  });
});

describe('emulator: held writes', () => {
  it('holdWrites(after) lets the first writes through and holds the next until released; reads pass', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const hold = emu.holdWrites(2);
    expect((await call(emu, 'POST', `${org}/collections`, { title: 'A' })).status).toBe(201);
    expect((await call(emu, 'POST', `${org}/collections`, { title: 'B' })).status).toBe(201);
    const third = call(emu, 'POST', `${org}/collections`, { title: 'C' });
    await until(() => hold.waiting() === 1, 15_000, 5);
    const titles = (await call(emu, 'GET', `${org}/collections`)).body.items.map((c: any) => c.title);
    expect(titles).toEqual(expect.arrayContaining(['A', 'B']));
    expect(titles).not.toContain('C');
    hold.release();
    expect((await third).status).toBe(201);
    expect(hold.waiting()).toBe(1);
  });
});

describe('emulator: the current flavor', () => {
  it('publishes, sorts the structure, groups sections by a field, has no custom fields, and answers 204 for deleting what does not exist', async () => {
    emu = await withEmulator({ seed: baseSeed(), flavor: 'current' });
    const site = (await call(emu, 'POST', `${org}/sites`, { title: 'Docs', agentsContext: 'excluded' })).body;
    expect(site.agentsContext).toBeUndefined();
    expect((await call(emu, 'POST', `${org}/sites/${site.id}/publish`)).body.published).toBe(true);
    expect((await call(emu, 'POST', `${org}/sites/${site.id}/unpublish`)).body.published).toBe(false);
    const a = (
      await call(emu, 'POST', `${org}/sites/${site.id}/sections`, { spaceId: 'space_1', title: 'Section A' })
    ).body;
    const b = (
      await call(emu, 'POST', `${org}/sites/${site.id}/sections`, { spaceId: 'space_2', title: 'Section B' })
    ).body;
    expect(
      (
        await call(emu, 'PATCH', `${org}/sites/${site.id}/structure/sort`, {
          item: { type: 'site-section', id: b.id },
          position: { before: { type: 'site-section', id: a.id } },
        })
      ).status,
    ).toBe(204);
    expect(
      (await call(emu, 'GET', `${org}/sites/${site.id}/sections`)).body.items.map((s: any) => s.id),
    ).toEqual([b.id, a.id]);
    const g = (await call(emu, 'POST', `${org}/sites/${site.id}/section-groups`, { title: 'G' })).body;
    expect(
      (await call(emu, 'PATCH', `${org}/sites/${site.id}/sections/${a.id}`, { siteSectionGroupId: g.id }))
        .body.sectionGroup,
    ).toBe(g.id);
    expect(
      (
        await call(emu, 'POST', `${org}/sites/${site.id}/section-groups/${g.id}/sections`, {
          sectionId: a.id,
        })
      ).status,
    ).toBe(404);
    expect((await call(emu, 'GET', `${org}/custom-fields`)).status).toBe(404);
    expect((await call(emu, 'DELETE', `${org}/sites/${site.id}/share-links/sl_nope`)).status).toBe(204);
    expect((await call(emu, 'DELETE', `${org}/sites/${site.id}`)).status).toBe(205);
    expect(
      (await call(emu, 'PUT', `${org}/openapi/new-spec`, { source: { url: 'https://example.com/x.yaml' } }))
        .status,
    ).toBe(201);
  });

  it('jitters the injected latency: each answer waits latencyMs ± latencyJitterMs', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    emu.setFaults({ latencyMs: 60, latencyJitterMs: 40, seed: 5 });
    const took: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const t0 = performance.now();
      expect((await call(emu, 'GET', org)).status).toBe(200);
      took.push(performance.now() - t0);
    }
    // Never below latencyMs − jitter; not all the same (a busy machine only adds to some of them).
    expect(Math.min(...took)).toBeGreaterThanOrEqual(19);
    expect(Math.max(...took) - Math.min(...took)).toBeGreaterThan(15);
    // The request log names the latency each answer was given (the latency bench's chain bound sums them).
    const delays = emu.requests().map((r) => r.delayMs ?? -1);
    expect(delays).toHaveLength(8);
    for (const [i, d] of delays.entries()) {
      expect(d).toBeGreaterThanOrEqual(20);
      expect(d).toBeLessThanOrEqual(100);
      expect(took[i]).toBeGreaterThanOrEqual(d - 1);
    }
    expect(new Set(delays).size).toBeGreaterThan(1);
  });

  it('makes a delayed read’s answer when the read comes and writes it when its latency is up', async () => {
    // The latency a read draws holds the time its answer takes to make (80 kB for a sections page):
    // made after it, that time was added to the latency, the more so the busier the emulator was.
    emu = await withEmulator({ seed: baseSeed() });
    emu.setFaults({ latencyMs: 1500, latencyMethods: ['GET'] });
    const before = (await call(emu, 'GET', org)).body.title as string;
    const read = call(emu, 'GET', org);
    await until(() => emu.requests().length === 2, 15_000, 5);
    // A write while the read waits out its latency (writes are not delayed here).
    expect((await call(emu, 'PATCH', org, { title: 'Renamed meanwhile' })).status).toBe(200);
    const answer = await read;
    expect(answer.status).toBe(200);
    expect(answer.body.title).toBe(before);
    expect((await call(emu, 'GET', org)).body.title).toBe('Renamed meanwhile');
    // Written after its latency, not before.
    const [, delayed] = emu.requests();
    expect(Date.parse(delayed!.finishedAt!) - Date.parse(delayed!.at)).toBeGreaterThanOrEqual(1499);
  });

  /** A request to `path` whose client goes away once `ready` holds (the emulator has it). */
  async function leaveEarly(path: string, init: RequestInit, ready: () => boolean): Promise<void> {
    const gone = new AbortController();
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const abandoned = fetch(`${emu.url}/v1${path}`, { ...init, headers, signal: gone.signal }).catch(
      (error: unknown) => error,
    );
    await until(ready, 15_000, 5);
    gone.abort();
    await abandoned;
  }

  it('logs a delayed read whose client went away as made but not sent, and forgets its timer', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    // Far longer than the test: only the client's leaving can settle the entry.
    emu.setFaults({ latencyMs: 60_000, latencyMethods: ['GET'] });
    await leaveEarly(org, {}, () => emu.requests().length === 1);
    await until(() => emu.requests()[0]!.sent === false, 15_000, 5);
    expect(emu.requests().map((r) => [r.status, r.sent])).toEqual([[200, false]]);
    emu.setFaults({});
    expect((await call(emu, 'GET', org)).status).toBe(200);
    expect(emu.requests().map((r) => [r.status, r.sent])).toEqual([
      [200, false],
      [200, undefined],
    ]);
  });

  it('logs a held write whose client went away with the status it was served with, not sent', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const hold = emu.holdWrites();
    const body = JSON.stringify({ title: 'Renamed by a client that left' });
    await leaveEarly(org, { method: 'PATCH', body }, () => hold.waiting() === 1);
    await until(() => emu.requests()[0]!.finishedAt, 15_000, 5);
    hold.release();
    // Served once released (as a real server would), its answer written to no one.
    await until(() => emu.state().organizations[0]!.title === 'Renamed by a client that left', 15_000, 5);
    await until(() => emu.requests()[0]!.status === 200, 15_000, 5);
    expect(emu.requests().map((r) => [r.status, r.sent])).toEqual([[200, false]]);
  });

  it('keeps a deletion made after its client timed out in the log (what the safety oracles read)', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    // A write's latency is waited out before it is served: the client leaves first, then the
    // member is deleted (were the machine too slow for that order, the answer is sent: the same log).
    emu.setFaults({ latencyMs: 600, latencyMethods: ['DELETE'] });
    await leaveEarly('/orgs/org_t/members/user_d', { method: 'DELETE' }, () => emu.requests().length === 1);
    await until(() => !JSON.stringify(emu.state()).includes('user_d'), 15_000, 5);
    await until(() => emu.requests()[0]!.status !== 0 && emu.requests()[0]!.finishedAt, 15_000, 5);
    expect(deletedIds(emu.requests())).toEqual(['user_d']);
  });
});
