import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from './json-schema.js';
import { anchor, renderReference } from './reference-doc.js';
import { coverage, documentedPaths } from './reference-parts.js';
import { KIND_DOCS } from './reference-kinds.js';
import { ConfigFileSchema } from './schema.js';

describe('docs/configuration.md', () => {
  it('is generated from the zod schema and up to date (run `npm run schema`)', () => {
    const committed = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderReference());
  });

  it('documents every kind of the schema, each list kind with its identity, each top-level kind with an example', () => {
    const paths = documentedPaths();
    expect(paths).toEqual(expect.arrayContaining(['sites[]', 'saml[]', 'sites[].sections[].spaces[]']));
    expect(Object.keys(KIND_DOCS).sort()).toEqual([...paths].sort());
    for (const path of paths) {
      if (path.endsWith('[]')) expect(KIND_DOCS[path]!.identity, path).toBeTruthy();
      if (!path.includes('.') && !path.includes('[].')) expect(KIND_DOCS[path]!.example, path).toBeDefined();
    }
  });

  it('lists every key of every kind with its type, limits and whether it may be omitted', () => {
    const doc = renderReference();
    const schema = configJsonSchema() as { properties: Record<string, unknown> };
    for (const key of Object.keys(schema.properties)) expect(doc).toContain(`| \`${key}\` |`);
    expect(doc).toMatch(/\| `organization` \| string \| non-empty \| \*\*required\*\* \|/);
    expect(doc).toMatch(
      /\| `maxDeletes` \| integer or string or map: name → integer or string \| ≥ 0; pattern [^|]+ \| optional; default 10 \|/,
    );
    expect(doc).toMatch(/\| `options` \| list of strings \| 1–50 items; each 1–40 characters \| optional/);
    // spaces[].customFields is optional (it was documented as required).
    expect(doc).toMatch(/\| `customFields` \| map: name → [^|]+\| [^|]*\| optional; omitted: not managed \|/);
    expect(doc).toContain('**Pin:** `id`');
  });

  it('has examples that the schema accepts', () => {
    for (const [path, kind] of Object.entries(KIND_DOCS)) {
      if (kind.example === undefined) continue;
      const result = ConfigFileSchema.safeParse({
        organization: 'org_example',
        [path.replace(/\[\]$/, '')]: kind.example,
      });
      expect(result.error?.issues ?? [], path).toEqual([]);
    }
  });

  it('follows $ref into definitions, so a schema with shared parts still documents them', () => {
    const doc = renderReference(
      {
        type: 'object',
        properties: { things: { type: 'array', items: { $ref: '#/definitions/Thing' } } },
        definitions: {
          Thing: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', minLength: 1, maxLength: 5, description: 'The name.' } },
          },
        },
      },
      { 'things[]': { title: 'things', identity: '`name`' } },
    );
    expect(doc).toContain('## `things[]`: things');
    expect(doc).toContain('| `name` | string | 1–5 characters | **required** | The name. |');
  });

  it('documents every schema path: in a section of its own, or under a shared part that links to the same keys', () => {
    const doc = renderReference();
    const headings = new Set([...doc.matchAll(/^#{2,4} `([^`]+)`/gm)].map((m) => m[1]!));
    const { own, shared, coveredBy } = coverage();
    for (const path of documentedPaths()) {
      if (headings.has(path)) continue;
      const by = coveredBy.get(path);
      expect(by, `${path} is documented`).toBeDefined();
      expect(headings.has(by!), by).toBe(true);
    }
    expect(own.every((p) => headings.has(p))).toBe(true);
    // The site's customization is documented once; each site space's overrides link to it.
    expect([...shared.keys()].sort()).toEqual([
      'sites[].sections[].spaces[].customization',
      'sites[].spaces[].customization',
    ]);
    const site = '`sites[].customization`: customization (sparse)';
    const line = `Same keys as [${site}](#${anchor(site)}), each of which may also be \`null\` here.`;
    expect(doc.split(line)).toHaveLength(3);
    expect(doc.match(/^#{2,4} `[^`]*customization\.styling`/gm)).toEqual([
      '#### `sites[].customization.styling`',
    ]);
  });

  it('links a part that has the keys of an earlier one of the same name instead of repeating it', () => {
    const color = (nullable: boolean): Record<string, unknown> => ({
      type: 'object',
      properties: {
        look: {
          type: 'object',
          properties: { hue: { type: nullable ? ['string', 'null'] : 'string', description: 'The hue.' } },
        },
      },
    });
    const doc = renderReference(
      {
        type: 'object',
        properties: {
          site: { type: 'object', properties: { color: color(false) } },
          page: { type: 'object', properties: { color: color(true) } },
          other: { type: 'object', properties: { color: color(false) } },
        },
      },
      {},
    );
    expect(doc).toContain('### `site.color`');
    expect(doc).toContain('#### `site.color.look`');
    expect(doc).not.toContain('`page.color.look`');
    expect(doc).toContain(
      '### `page.color`\n\nSame keys as [`site.color`](#sitecolor), each of which may also be `null` here.',
    );
    expect(doc).toContain('### `other.color`\n\nSame keys as [`site.color`](#sitecolor).\n');
  });
});
