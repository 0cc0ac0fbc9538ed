import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capabilitiesOf } from '../api/capabilities.js';
import { emulated } from '../kinds/emulated.js';
import { kindModules } from '../kinds/registry.js';
import type { Resolver } from '../kinds/types.js';
import { declaredKinds, registerDeclared, routerTemplate, serveDeclared } from './declared.js';
import { HttpError } from './errors.js';
import { Router } from './router.js';
import { stateFromSeed } from './seed.js';
import { makeShapes } from './shapes.js';

/** A declared kind with nothing of its own in the emulator: store, routes, validation, 404s, hooks. */
const notes = emulated({
  in: 'organizations',
  store: 'notes',
  routes: { list: '/orgs/{org}/notes', item: '/orgs/{org}/notes/{note}' },
  noun: 'note',
  idPrefix: 'note',
  create: {
    body: z.object({ text: z.string().max(5), rank: z.number().int().default(0) }),
    item: (b, ctx) => ({ id: ctx.id(), text: b.text, rank: b.rank, at: ctx.now() }),
  },
  get: true,
  update: {
    method: 'PATCH',
    body: z.object({ text: z.string().max(5).optional() }),
    apply: (n, b) => {
      if (b.text !== undefined) n.text = b.text;
    },
  },
  delete: { status: { seed: 205, current: 204 } },
  answer: (n, ctx) => ({ object: 'note', id: n.id, text: n.text, org: ctx.org }),
  hooks: { order: (items) => [...items].sort((a, b) => a.rank - b.rank) },
});

function serve() {
  let state = stateFromSeed({ organizations: [{ id: 'org_1' }] });
  const router = new Router();
  const deps = {
    state: () => state,
    shapes: makeShapes(() => 'http://emu'),
    router,
    flavor: 'current' as const,
    baseUrl: () => 'http://emu',
  };
  serveDeclared(deps, notes);
  const ask = (method: string, path: string, body?: unknown, query = '') => {
    const m = router.match(method, path);
    if (!m || m === 'method') throw new Error(`no route ${method} ${path}`);
    try {
      return m.handler({ params: m.params, query: new URLSearchParams(query), body });
    } catch (error) {
      if (error instanceof HttpError) return { status: error.status, body: { message: error.message } };
      throw error;
    }
  };
  return { ask, state: () => state, reset: () => (state = stateFromSeed({})), router };
}

describe('a declared kind in the emulator', () => {
  it('creates, lists in its hook order, pages, gets, updates and deletes', () => {
    const { ask, state } = serve();
    const a = ask('POST', '/orgs/org_1/notes', { text: 'b', rank: 2 }).body as { id: string };
    ask('POST', '/orgs/org_1/notes', { text: 'a', rank: 1 });
    expect(a.id).toMatch(/^note_/);
    const page = ask('GET', '/orgs/org_1/notes', undefined, 'limit=1').body as Record<string, unknown>;
    expect(page).toMatchObject({ count: 2, items: [{ object: 'note', text: 'a', org: 'org_1' }] });
    expect(page['next']).toBeDefined();
    expect(ask('GET', `/orgs/org_1/notes/${a.id}`).body).toMatchObject({ text: 'b' });
    expect(ask('PATCH', `/orgs/org_1/notes/${a.id}`, { text: 'c' }).body).toMatchObject({ text: 'c' });
    expect(ask('DELETE', `/orgs/org_1/notes/${a.id}`)).toEqual({ status: 204 });
    expect((state().organizations[0] as unknown as { notes: unknown[] }).notes).toHaveLength(1);
  });

  it('answers 400 naming the field, 404 for an unknown id or organization, and changes nothing', () => {
    const { ask, state } = serve();
    expect(ask('POST', '/orgs/org_1/notes', { text: 'toolong' })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^text: /) },
    });
    expect(ask('POST', '/orgs/org_1/notes')).toMatchObject({ status: 400 });
    expect(ask('POST', '/orgs/org_1/notes', [1])).toMatchObject({
      status: 400,
      body: { message: 'request body must be a JSON object' },
    });
    expect(ask('PATCH', '/orgs/org_1/notes/note_x', { text: 'a' })).toEqual({
      status: 404,
      body: { message: 'note note_x not found' },
    });
    expect(ask('GET', '/orgs/org_2/notes')).toMatchObject({ status: 404 });
    expect(ask('GET', '/orgs/org_1/notes')).toMatchObject({ status: 200, body: { items: [] } });
    expect('notes' in state().organizations[0]!).toBe(false);
  });

  it('serves the registry kinds that declare one only in the flavors that have them', () => {
    expect(declaredKinds.map((k) => k.kind).sort()).toEqual([
      'invite-link',
      'share-link',
      'site-external-link',
      'site-redirect',
    ]);
    const templates = (flavor: 'seed' | 'current') => {
      const router = new Router();
      registerDeclared({
        state: () => stateFromSeed({}),
        shapes: makeShapes(() => ''),
        router,
        flavor,
        baseUrl: () => '',
      });
      return router.list().map((r) => `${r.method} ${r.template}`);
    };
    expect(templates('current')).toContain('PATCH /orgs/:orgId/link-invites/:invite');
    expect(templates('seed').some((t) => t.includes('link-invites'))).toBe(false);
    expect(templates('seed')).toContain('DELETE /orgs/:orgId/sites/:siteId/share-links/:link');
  });

  it("serves every call a declared kind's operations make, at the kind's own routes", () => {
    const caps = capabilitiesOf('current');
    const router = new Router();
    registerDeclared({
      state: () => stateFromSeed({}),
      shapes: makeShapes(() => ''),
      router,
      flavor: 'current',
      baseUrl: () => '',
    });
    const served = new Set(router.list().map((r) => `${r.method} ${r.template}`));
    const r: Resolver = { ref: () => 'x', patch: (p) => p, position: () => ({}) };
    const calls = kindModules
      .filter((k) => k.emulator)
      .flatMap((k) =>
        Object.values(k.ops).map((def) =>
          (def as { call: (...a: unknown[]) => { method: string; route: string } }).call(
            { org: 'o', position: { before: { id: 'x' } } },
            r,
            caps,
          ),
        ),
      )
      // A move is the site's structure sort, served with the site's routes (routes/sites.ts).
      .filter((c) => !c.route.endsWith('/structure/sort'));
    expect(calls.length).toBeGreaterThanOrEqual(6);
    expect(calls.map((c) => `${c.method} ${routerTemplate(c.route)}`).filter((c) => !served.has(c))).toEqual(
      [],
    );
  });
});
