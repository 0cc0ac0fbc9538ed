import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { baseSeed, call, withEmulator } from '../helpers/emulator.js';

/**
 * Emulator answers checked against the response schemas of the official OpenAPI document
 * (npm package @gitbook/api), for the fields api.md names. Where the two disagree api.md wins;
 * the differences are listed in docs/api-differences.md.
 */
const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as {
  components: { schemas: Record<string, any> };
};

function deref(schema: any, depth: number): any {
  if (Array.isArray(schema)) return schema.map((s) => deref(s, depth));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    if (depth > 6) return {};
    const name = schema.$ref.replace('#/components/schemas/', '');
    const { $ref: _ref, ...rest } = schema;
    return { ...deref(spec.components.schemas[name], depth + 1), ...deref(rest, depth) };
  }
  const out: any = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'required' || k === 'deprecated' || k === 'example') continue; // nested objects: api.md names fewer fields
    out[k] = deref(v, depth);
  }
  return out;
}

/** The official schema of `name`, restricted to `fields`, required where both documents require. */
function projected(name: string, fields: string[]): object {
  const official = spec.components.schemas[name];
  const properties: Record<string, unknown> = {};
  for (const f of fields) if (official.properties?.[f]) properties[f] = deref(official.properties[f], 0);
  const required = (official.required ?? []).filter((f: string) => fields.includes(f));
  return { type: 'object', properties, required };
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// Formats of the document that name GitBook's own vocabularies: any string (as in test/helpers/openapi.ts).
ajv.addFormat('icon', true);
ajv.addFormat('emoji', true);

const checks = {
  Site: [
    'object',
    'id',
    'type',
    'title',
    'hostname',
    'basename',
    'proxy',
    'visibility',
    'published',
    'siteSpaces',
    'createdAt',
    'adaptiveContent',
    'features',
    'urls',
  ],
  SiteSection: [
    'object',
    'id',
    'title',
    'description',
    'default',
    'path',
    'condition',
    'sectionGroup',
    'icon',
    'urls',
  ],
  SiteSpace: ['object', 'id', 'path', 'section', 'title', 'default', 'condition', 'urls'],
  ShareLink: ['object', 'id', 'createdAt', 'name', 'active', 'urls'],
  OrganizationTeam: ['object', 'id', 'title', 'members', 'spaces', 'createdAt', 'permissions'],
} as const;

let emu: Emulator;
const answers: Record<keyof typeof checks, unknown[]> = {
  Site: [],
  SiteSection: [],
  SiteSpace: [],
  ShareLink: [],
  OrganizationTeam: [],
};

beforeAll(async () => {
  emu = await withEmulator({ seed: baseSeed() });
  const org = '/orgs/org_t';
  const site = (await call(emu, 'POST', `${org}/sites`, { title: 'Docs', visibility: 'unlisted' })).body;
  answers.Site.push(
    site,
    (await call(emu, 'PATCH', `${org}/sites/${site.id}`, { basename: 'docs', proxy: 'company.com/docs' }))
      .body,
  );
  const section = (
    await call(emu, 'POST', `${org}/sites/${site.id}/sections`, { spaceId: 'space_1', title: 'Guides' })
  ).body;
  answers.SiteSection.push(
    section,
    (
      await call(emu, 'PATCH', `${org}/sites/${site.id}/sections/${section.id}`, {
        icon: 'book',
        condition: 'a',
        description: 'd',
      })
    ).body,
  );
  const ss = (
    await call(emu, 'POST', `${org}/sites/${site.id}/site-spaces`, {
      spaceId: 'space_2',
      sectionId: section.id,
    })
  ).body;
  answers.SiteSpace.push(
    ss,
    (await call(emu, 'PATCH', `${org}/sites/${site.id}/site-spaces/${ss.id}`, { path: 'v2', condition: 'c' }))
      .body,
  );
  answers.SiteSpace.push(...(await call(emu, 'GET', `${org}/sites/${site.id}/site-spaces`)).body.items);
  answers.ShareLink.push(
    (await call(emu, 'POST', `${org}/sites/${site.id}/share-links`, { name: 'preview' })).body,
  );
  answers.OrganizationTeam.push(
    (await call(emu, 'PUT', `${org}/teams`, { title: 'Writers', members: ['user_a'] })).body,
  );
  answers.Site.push(...(await call(emu, 'GET', `${org}/sites`)).body.items);
});
afterAll(async () => emu?.close());

describe('emulator answers against the official OpenAPI response schemas', () => {
  it.each(Object.entries(checks))('%s', (name, fields) => {
    const validate = ajv.compile(projected(name, [...fields]));
    const list = answers[name as keyof typeof checks];
    expect(list.length).toBeGreaterThan(0);
    for (const answer of list) {
      const ok = validate(answer);
      expect(ok, `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});
