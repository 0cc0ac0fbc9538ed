import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerReader, HttpRequest, HttpResponse } from '../../src/api/http.js';
import { applyPlan } from '../../src/apply/run.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { call, client, withEmulator } from '../helpers/emulator.js';
import type { ApiClient } from '../../src/api/client.js';
import type { ExampleKind } from '../../src/kinds/example-kinds.js';
import { anyListKinds } from '../../src/kinds/registry.js';
import { desiredOf, exampleCase, kindsFor } from '../helpers/kind-examples.js';
import { checkRequest, checkResponse, officialVersion } from '../helpers/openapi.js';
import { org } from '../golden/scenarios.js';

/**
 * Every answer of the emulator in `--flavor current` validates against the official response
 * schema of its operation (the whole schema, required properties included), for every route the
 * emulator serves: a scenario gives each route a success answer, and probes give each route error
 * answers (no token, an unknown id, a body that is not an object).
 */
type Answer = {
  method: string;
  path: string;
  status: number;
  body: unknown;
  request?: unknown;
  probe: boolean;
};

const seed = {
  organizations: [
    {
      id: 'org_t',
      title: 'Test Org',
      members: [
        { id: 'user_a', email: 'a@example.com', displayName: 'A', role: 'admin' },
        { id: 'user_b', email: 'b@example.com', displayName: 'B', role: 'edit' },
        { id: 'user_c', email: 'c@example.com', displayName: 'C', role: 'read' },
        { id: 'user_d', email: 'd@example.com', displayName: 'D', role: null },
      ],
      collections: [
        { id: 'col_1', title: 'Product', description: 'All products' },
        { id: 'col_2', title: 'Inner', parent: 'col_1' },
      ],
      spaces: [
        { id: 'space_1', title: 'Guides', parent: 'col_1' },
        { id: 'space_2', title: 'API' },
        { id: 'space_3', title: 'Handbook' },
        { id: 'space_4', title: 'Changelog' },
        { id: 'space_5', title: 'Français' },
      ],
      teams: [{ id: 'team_1', title: 'Writers', members: ['user_a', { user: 'user_b', role: 'owner' }] }],
      sites: [
        {
          id: 'site_1',
          title: 'Docs',
          published: true,
          basename: 'docs',
          proxy: 'company.com/docs',
          sectionGroups: [{ id: 'sg_1', title: 'Products', icon: 'box' }],
          sections: [
            {
              id: 'sec_1',
              title: 'Guides',
              icon: 'book',
              description: 'How to',
              condition: 'visitor.claims.beta',
              sectionGroup: 'sg_1',
              siteSpaces: [{ id: 'ss_1', space: 'space_1', condition: 'true' }],
            },
            { id: 'sec_2', title: 'Reference', siteSpaces: [{ id: 'ss_2', space: 'space_2' }] },
          ],
          shareLinks: [{ id: 'sl_1', name: 'preview' }],
        },
      ],
      openapi: [{ slug: 'petstore', source: 'https://example.com/petstore.yaml' }],
      saml: [
        {
          id: 'saml_1',
          label: 'Okta',
          entityID: 'okta',
          ssoURL: 'https://okta.example.com/sso',
          defaultTeam: 'team_1',
          defaultRole: 'read',
        },
        { id: 'saml_2', label: 'Bare' },
      ],
      translations: [
        { id: 'tr_1', source: { space: 'space_3', language: 'en' }, language: 'fr' },
        { id: 'tr_2', title: 'Old settings' },
      ],
    },
  ],
};

let emu: Emulator;
const answers: Answer[] = [];
let probing = false;

async function ask(method: string, path: string, body?: unknown, token?: string | null): Promise<any> {
  const res = await call(emu, method, path, body, token);
  answers.push({ method, path, status: res.status, body: res.body, request: body, probe: probing });
  return res.body;
}

/** One success answer for every route, in an order where each call finds what it needs. */
async function scenario(): Promise<void> {
  const o = '/orgs/org_t';
  await ask('GET', '/user');
  await ask('GET', '/orgs');
  await ask('GET', o);
  await ask('PATCH', o, { title: 'Test Org 2', inviteLinks: true, defaultRole: 'read' });
  await ask('GET', `${o}/members`);
  await ask('GET', `${o}/members/user_b`);
  await ask('PATCH', `${o}/members/user_b`, { role: 'review' });
  await ask('PATCH', `${o}/members/user_c`, { role: null });
  await ask('GET', `${o}/collections`);
  await ask('GET', '/collections/col_1');
  await ask('GET', '/collections/col_1/spaces');
  const col = await ask('POST', `${o}/collections`, { title: 'New' });
  await ask('PATCH', `/collections/${col.id}`, { description: 'd', defaultLevel: 'inherit' });
  await ask('POST', `/collections/${col.id}/move`, { parent: 'col_1' });
  await ask('DELETE', `/collections/${col.id}`);
  await ask('GET', '/spaces/space_1');
  await ask('PATCH', '/spaces/space_2', { title: 'API v2', emoji: '🚀', defaultLevel: 'inherit' });
  await ask('POST', '/spaces/space_2/move', { parent: 'col_2' });

  await ask('GET', `${o}/teams`);
  await ask('GET', `${o}/teams/team_1`);
  const team = await ask('PUT', `${o}/teams`, { title: 'Reviewers', members: ['user_c'] });
  await ask('PATCH', `${o}/teams/${team.id}`, { title: 'Reviewers 2' });
  await ask('GET', `${o}/teams/team_1/members`);
  await ask('PUT', `${o}/teams/${team.id}/members`, {
    add: ['user_d'],
    memberships: { user_c: { role: 'owner' } },
  });
  await ask('PUT', `${o}/teams/${team.id}/members/user_a`, { role: 'member' });
  await ask('DELETE', `${o}/teams/${team.id}/members/user_a`);
  await ask('DELETE', `${o}/teams/${team.id}`);

  await ask('GET', `${o}/sites`);
  await ask('GET', `${o}/sites/site_1`);
  const site = await ask('POST', `${o}/sites`, {
    title: 'Handbook',
    visibility: 'unlisted',
    spaces: ['space_3'],
  });
  const s = `${o}/sites/${site.id}`;
  await ask('PATCH', s, { basename: 'hb', adaptiveContent: { enabled: true }, proxy: 'company.com/hb' });
  await ask('POST', `${s}/publish`);
  await ask('GET', `${s}/site-spaces`);
  await ask('POST', `${s}/unpublish`);
  await ask('GET', `${s}/adaptive-schema`);
  await ask('PUT', `${s}/adaptive-schema`, {
    jsonSchema: {
      type: 'object',
      properties: {
        beta: { type: 'boolean', description: 'Beta tester' },
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        tags: { type: 'array', description: 'Tags', items: { type: 'string', description: 'Tag' } },
      },
      additionalProperties: false,
    },
  });

  const one = await ask('POST', `${s}/sections`, { spaceId: 'space_4', title: 'Changes' });
  const two = await ask('POST', `${s}/sections`, { spaceId: 'space_5', title: 'Langues' });
  await ask('GET', `${s}/sections`);
  await ask('PATCH', `${s}/sections/${one.id}`, { icon: 'book', condition: 'true', description: 'd' });
  await ask('POST', `${s}/sections/${two.id}/move`, {
    position: { before: { type: 'site-section', siteSection: one.id } },
  });
  const g1 = await ask('POST', `${s}/section-groups`, { title: 'First', icon: 'box', sections: [one.id] });
  const g2 = await ask('POST', `${s}/section-groups`, { title: 'Second' });
  await ask('PATCH', `${s}/sections/${two.id}`, { siteSectionGroupId: g2.id });
  await ask('GET', `${s}/section-groups`);
  await ask('PATCH', `${s}/section-groups/${g1.id}`, { title: 'First!', icon: null });
  await ask('POST', `${s}/section-groups/${g2.id}/move`, {
    position: { before: { type: 'site-section', id: g1.id } },
  });
  await ask('PATCH', `${s}/structure/sort`, {
    item: { type: 'site-section', id: one.id },
    position: { before: { type: 'site-section', id: two.id } },
  });
  const ss = await ask('POST', `${s}/site-spaces`, { spaceId: 'space_1', sectionId: one.id });
  await ask('PATCH', `${s}/site-spaces/${ss.id}`, { path: 'v2', condition: 'false' });
  await ask('GET', `${s}/site-spaces`);
  const first = (await ask('GET', `${s}/sections`)).items[0].siteSpaces[0];
  await ask('POST', `${s}/site-spaces/${ss.id}/move`, {
    position: { before: { type: 'site-space', siteSpace: first.id } },
  });
  await ask('DELETE', `${s}/site-spaces/${ss.id}`);
  await ask('DELETE', `${s}/section-groups/${g1.id}`);
  await ask('DELETE', `${s}/sections/${one.id}`);

  // A site space's customization overrides (issue 30): set, one reset by null, all removed (205), none left (204).
  const over = `${o}/sites/site_1/site-spaces/ss_1/customization`;
  await ask('GET', over);
  await ask('PATCH', over, {
    title: 'Guides v2',
    styling: { primaryColor: { light: '#0055FF', dark: '#0055FF' } },
  });
  await ask('PATCH', over, { title: null, styling: { primaryColor: null } });
  await ask('DELETE', over);
  await ask('DELETE', over);
  // Issue 30: drafts, hidden site spaces, localized titles, home pages, defaultLevel, external links.
  await ask('PATCH', s, { defaultLevel: 'inherit' });
  const staged = await ask('POST', `${s}/sections`, { spaceId: 'space_1', title: 'Staged', draft: true });
  await ask('PATCH', `${s}/sections/${staged.id}`, {
    draft: false,
    localizedTitle: { fr: 'Préparé' },
    localizedDescription: { de: 'Vorbereitet' },
  });
  const hidden = await ask('POST', `${s}/site-spaces`, {
    spaceId: 'space_2',
    sectionId: staged.id,
    draft: true,
  });
  await ask('PATCH', `${s}/site-spaces/${hidden.id}`, { hidden: true, pageId: 'page_1', draft: false });
  const group = await ask('POST', `${s}/section-groups`, { title: 'Drafts', draft: true });
  await ask('PATCH', `${s}/section-groups/${group.id}`, {
    draft: false,
    localizedTitle: { fr: 'Brouillons' },
  });
  const status = await ask('POST', `${s}/external-links`, {
    title: 'Status',
    url: 'https://status.example.com',
    draft: true,
    localizedTitle: { fr: 'État' },
  });
  await ask('PATCH', `${s}/external-links/${status.id}`, {
    description: 'Is it up?',
    icon: 'signal',
    draft: false,
  });
  const forum = await ask('POST', `${s}/external-links`, {
    title: 'Forum',
    url: 'https://forum.example.com',
  });
  await ask('PATCH', `${s}/structure/sort`, {
    item: { type: 'site-external-link', id: forum.id },
    position: { before: { type: 'site-external-link', id: status.id } },
  });
  // Nested groups and links placed in groups and among sections (issue 30).
  const inner = await ask('POST', `${s}/section-groups`, { title: 'Inner', parent: group.id });
  const outer = await ask('POST', `${s}/section-groups`, { title: 'Outer' });
  await ask('PATCH', `${s}/section-groups/${inner.id}`, { parentSectionGroupId: outer.id });
  const nestedLink = await ask('POST', `${s}/external-links`, {
    title: 'API status',
    url: 'https://status.example.com/api',
    parent: inner.id,
  });
  await ask('PATCH', `${s}/external-links/${forum.id}`, { parent: group.id });
  await ask('PATCH', `${s}/external-links/${forum.id}`, { parent: null });
  await ask('PATCH', `${s}/structure/sort`, {
    item: { type: 'site-external-link', id: forum.id },
    position: { after: { type: 'site-section', id: staged.id } },
  });
  await ask('GET', `${s}/section-groups`);
  await ask('GET', `${s}/structure`);
  await ask('DELETE', `${s}/external-links/${nestedLink.id}`);
  await ask('PATCH', `${s}/section-groups/${inner.id}`, { parentSectionGroupId: null });
  await ask('DELETE', `${s}/section-groups/${outer.id}`);
  await ask('GET', `${o}/sites/site_1/structure`);
  await ask('GET', `${s}/publishing/preview`);
  await ask('DELETE', `${s}/external-links/${status.id}`);

  const link = await ask('POST', `${s}/share-links`, { name: 'partners' });
  await ask('GET', `${s}/share-links`);
  await ask('PATCH', `${s}/share-links/${link.id}`, { active: false, name: 'partners 2' });
  await ask('DELETE', `${s}/share-links/${link.id}`);
  // Redirects (issue 30): the bulk upsert, one created and one deleted, then the resolution of a source.
  await ask('PUT', `${s}/redirects`, {
    redirects: [
      {
        source: '/old-changes',
        destination: { kind: 'site-section', siteSectionId: two.id },
        permanent: true,
      },
      {
        source: '/old/*',
        destination: { kind: 'external', url: 'https://example.com/new' },
        captureWildcard: true,
      },
      { source: '/gone', intent: 'draft', destination: { kind: 'external', url: 'https://example.com' } },
    ],
  });
  await ask('PUT', `${s}/redirects`, {
    redirects: [{ source: '/gone', intent: 'draft', destination: null }],
  });
  await ask('GET', `${s}/redirect?source=/old/a/b`);
  await ask('DELETE', s);

  // Grants of a space, a collection and a site (issue 29).
  for (const base of ['/spaces/space_1', '/collections/col_1', `${o}/sites/site_1`]) {
    const p = `${base}/permissions`;
    await ask('POST', p, { role: 'edit', teams: ['team_1'] });
    await ask('POST', p, { role: 'read', users: ['user_c'] });
    await ask('GET', `${p}/teams`);
    await ask('GET', `${p}/users`);
    await ask('PATCH', `${p}/teams/team_1`, { role: 'admin' });
    await ask('PATCH', `${p}/users/user_c`, { role: 'comment' });
    await ask('GET', `${p}/aggregate`);
    await ask('DELETE', `${p}/teams/team_1`);
    await ask('DELETE', `${p}/users/user_c`);
  }

  await ask('GET', `${o}/openapi`);
  await ask('GET', `${o}/openapi/petstore`);
  await ask('POST', `${o}/openapi`, { slug: 'Users-API', source: { url: 'https://example.com/users.json' } });
  await ask('PUT', `${o}/openapi/Users-API`, { source: { url: 'https://example.com/users2.json' } });
  await ask('PUT', `${o}/openapi/orders`, { source: { url: 'https://example.com/orders.json' } });
  await ask('PATCH', `${o}/openapi/Users-API`, { visibility: 'public' });
  // A spec made from text, its text changed, its raw text read back (issue 30).
  await ask('POST', `${o}/openapi`, { slug: 'inline', source: { text: 'openapi: 3.1.0\n' } });
  await ask('PUT', `${o}/openapi/inline`, { source: { text: '{"openapi": "3.1.0"}' } });
  await ask('GET', `${o}/openapi/inline/versions/latest/content/raw`);
  await ask('GET', `${o}/openapi/inline`);
  await ask('DELETE', `${o}/openapi/orders`);

  await ask('GET', `${o}/saml`);
  await ask('GET', `${o}/saml/saml_1`);
  const saml = await ask('POST', `${o}/saml`, { label: 'Azure', ssoURL: 'https://azure.example.com/sso' });
  await ask('PATCH', `${o}/saml/${saml.id}`, {
    entityID: 'azure',
    defaultRole: 'edit',
    defaultTeam: 'team_1',
  });
  await ask('DELETE', `${o}/saml/${saml.id}`);

  await ask('GET', `${o}/translations`);
  await ask('GET', `${o}/translations/tr_1`);
  const tr = await ask('POST', `${o}/translations`, {
    source: { space: 'space_2', language: 'en' },
    language: 'de',
    instructions: {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Formal tone', marks: [] }] }],
        },
      ],
    },
  });
  await ask('PUT', `${o}/translations/${tr.id}`, {
    instructions: { object: 'document', data: {}, nodes: [] },
  });
  await ask('POST', `${o}/translations/${tr.id}/run`);
  await ask('DELETE', `${o}/translations/${tr.id}`);
  await ask('DELETE', `${o}/members/user_d`);
  await ask('POST', `${o}/invites`, { emails: [{ email: 'invitee@example.com', role: 'read' }] });
  // The audit log records the writes above (src/emulator/audit.ts).
  const events = await ask('GET', `${o}/audit-events`);
  await ask('GET', `${o}/audit-events/${events.items[0].id}`);
  await ask('GET', `${o}/audit-event-actions`);
}

/** The organization of the examples' seed (`org()`). */
const ORG_ID = 'org_g';

/**
 * Every kind's examples against today's API: each kind's `update` and `replace` plans applied
 * (reads, creations, updates, deletions), every request and answer recorded. A new kind's routes
 * get their success answers from the examples it declares.
 */
async function examples(): Promise<void> {
  for (const kind of kindsFor('current'))
    for (const variant of ['update', 'replace'] as const) {
      const c = exampleCase(kind, variant, () => ({ config: { organization: ORG_ID }, seed: org() }));
      const own = await withEmulator({ seed: c.seed, flavor: 'current' });
      const api = client(own, { flavor: 'current' });
      const send = api.http.send.bind(api.http);
      Object.assign(api.http, {
        send: async (
          req: HttpRequest,
          shape?: ((res: HttpResponse) => unknown) | AnswerReader<unknown>,
        ): Promise<unknown> => {
          const query = new URLSearchParams();
          for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) query.set(k, String(v));
          const path = `${req.path}${query.size > 0 ? `?${query}` : ''}`;
          const res = await send(req);
          answers.push({
            method: req.method,
            path,
            status: res.status,
            body: res.body,
            request: req.body,
            probe: false,
          });
          return typeof shape === 'function' ? shape(res) : shape ? shape.read(res) : res;
        },
      });
      try {
        const desired = { organizations: [desiredOf(c.config)] };
        const { plan } = await makePlan(api, desired);
        expect(plan.errors, `${kind.kind} ${variant}`).toEqual([]);
        const result = await applyPlan(plan, api);
        expect(result.results.filter((r) => r.status !== 'applied')).toEqual([]);
        if (variant === 'update') await getDeclaredItem(api, kind);
      } finally {
        await api.close();
        await own.close();
      }
    }
}

/**
 * A declared kind's item GET, which docsync itself never sends (an organization's list kind that
 * the emulator serves with `get`): its first item, once its examples are applied.
 */
async function getDeclaredItem(api: ApiClient, kind: ExampleKind): Promise<void> {
  const module = anyListKinds.find((k) => k.kind === kind.kind);
  const read = module?.reads.find((r) => !r.readOnly);
  if (kind.in !== 'organization' || !module?.emulator?.get || !read) return;
  const list = read.list(ORG_ID);
  const [first] = (await api.list(list)) as { id: string }[];
  const param = /\{(\w+)\}$/.exec(module.emulator.routes.item)![1]!;
  const route = module.emulator.routes.item;
  await api.request({ method: 'GET', route, params: { ...list.params, [param]: first!.id }, expect: [200] });
}

/** A concrete path for a route template: known ids for every parameter, `unknown` for the last one. */
function probePath(template: string, unknownLast: boolean): string {
  const known: Record<string, string> = {
    orgId: 'org_t',
    userId: 'user_a',
    collectionId: 'col_1',
    spaceId: 'space_1',
    teamId: 'team_1',
    siteId: 'site_1',
    sectionId: 'sec_1',
    groupId: 'sg_1',
    siteSpaceId: 'ss_1',
    linkId: 'sl_1',
    slug: 'petstore',
    id: 'saml_1',
    invite: 'inv_1',
  };
  const names = [...template.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const last = names.at(-1);
  return template.replace(/:(\w+)/g, (_, name: string) =>
    unknownLast && name === last ? `unknown-${name}` : (known[name] ?? name),
  );
}

async function probes(): Promise<void> {
  probing = true;
  for (const r of emu.routes()) {
    await ask(r.method, probePath(r.template, false), undefined, null);
    if (r.template.includes(':'))
      await ask(
        r.method,
        probePath(r.template, true),
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
    if (r.method !== 'GET' && r.method !== 'DELETE') await ask(r.method, probePath(r.template, false), [1]);
  }
}

/** A route template as a pattern of paths (a list's page query aside). */
const routeRegex = (template: string) => new RegExp(`^${template.replace(/:\w+/g, '[^/]+')}(?:\\?.*)?$`);

beforeAll(async () => {
  emu = await withEmulator({ seed, flavor: 'current' });
  await examples();
  await scenario();
  await probes();
}, 60_000);
afterAll(async () => emu?.close());

describe(`emulator --flavor current against the official document (@gitbook/api ${officialVersion})`, () => {
  it('the scenario sends only requests the official document allows', () => {
    const scenario = answers.filter((a) => !a.probe);
    // The emulator still serves the deprecated move calls; they are valid requests all the same.
    const problems = scenario.flatMap((a) => checkRequest(a.method, a.path, a.request));
    expect(problems.filter((p) => !p.endsWith(' is deprecated'))).toEqual([]);
    expect(scenario.filter((a) => a.status >= 400).map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual(
      [],
    );
  });

  it('every answer validates against the response schema of its operation', () => {
    const problems = answers.flatMap((a) => checkResponse(a.method, a.path, a.status, a.body));
    expect(problems).toEqual([]);
    expect(answers.length).toBeGreaterThan(250);
    expect(answers.filter((a) => a.status >= 400).length).toBeGreaterThan(150);
  });

  it('every route the emulator serves gave a success answer and an error answer', () => {
    const routes = emu.routes();
    expect(routes.length).toBeGreaterThan(60);
    const missing: string[] = [];
    for (const r of routes) {
      const re = routeRegex(r.template);
      const mine = answers.filter((a) => a.method === r.method && re.test(a.path));
      if (!mine.some((a) => a.status >= 200 && a.status < 300))
        missing.push(`${r.method} ${r.template}: no success`);
      if (!mine.some((a) => a.status >= 400)) missing.push(`${r.method} ${r.template}: no error`);
    }
    expect(missing).toEqual([]);
  });
});
