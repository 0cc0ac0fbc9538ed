import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { problem, type DiffContext } from '../diff/context.js';
import { same } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { Ref } from '../model/change.js';
import type { SiteFacet } from './value-shapes.js';
import type { KindExamples } from './examples.js';

/** The JSON Schema of a site's visitor claims: one object, replaced whole. A key of the site entry. */

export type AdaptiveSchemaOp = {
  type: 'set-adaptive-schema';
  org: string;
  site: Ref;
  jsonSchema: Record<string, unknown>;
};

const Config = z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()) });
type Config = z.infer<typeof Config>;
type Schema = Record<string, unknown>;

const Answer = z.looseObject({ jsonSchema: z.record(z.string(), z.unknown()) });
const ROUTE = '/orgs/{org}/sites/{site}/adaptive-schema';

/** Live: the schema, or null when the site has none; undefined when the site is not live. */
function diff(ctx: DiffContext, site: SiteScope, siteTitle: string, d: Schema, l: Schema | null | undefined) {
  const drafts = kindDrafts<AdaptiveSchemaOp>(ctx, 'site-adaptive-schema');
  if (same(d, l ?? null)) return;
  if (!ctx.caps.jsonSchemaId && '$id' in d)
    problem(
      ctx,
      `site "${siteTitle}": the current API refuses $id in adaptiveSchema; remove it`,
      'unsupported-by-api',
    );
  const addr = `${site.addr}/adaptive-schema`;
  drafts.update({
    address: addr,
    before: l !== undefined ? { jsonSchema: l } : null,
    after: { jsonSchema: d },
    deps: [site.createKey],
    op: { type: 'set-adaptive-schema', org: ctx.org, site: site.ref, jsonSchema: d },
  });
}

export const adaptiveSchemaKind: SiteFacet<
  'adaptiveSchema',
  Config,
  Schema,
  Schema | null,
  AdaptiveSchemaOp,
  'site-adaptive-schema'
> = {
  kind: 'site-adaptive-schema',
  key: 'adaptiveSchema',
  config: Config,
  describe: 'JSON Schema (draft-07) of the visitor claims.',
  docs: { 'sites[].adaptiveSchema': { title: 'adaptive schema (visitor claims)' } },
  normalize: (schema) => schema,
  read: {
    call: (org, site) => ({
      method: 'GET',
      route: ROUTE,
      params: { org, site },
      expect: [200],
      answer: Answer,
    }),
    live: (answer: z.infer<typeof Answer>) => answer.jsonSchema,
  },
  diff,
  // An empty schema (no claims) is the platform's default: left out.
  export: (l) =>
    l && Object.keys((l['properties'] as object | undefined) ?? {}).length > 0 ? (l as Config) : undefined,
  ops: {
    'set-adaptive-schema': {
      call: (op, r) => ({
        method: 'PUT',
        route: ROUTE,
        params: { org: op.org, site: r.ref(op.site) },
        body: { jsonSchema: op.jsonSchema },
        expect: [200],
      }),
    },
  },
  examples: {
    // A site that never had a schema answers the platform's empty one (a seed cannot hold another).
    pairs: [
      {
        config: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {},
          additionalProperties: false,
        },
        seed: {},
        changed: {
          type: 'object',
          additionalProperties: false,
          properties: {
            unsigned: {
              type: 'object',
              description: 'Unsigned claims of the site visitor.',
              additionalProperties: false,
              properties: { beta: { type: 'boolean', description: 'Beta tester' } },
            },
          },
        },
      },
    ],
  } satisfies KindExamples<Config>,
};
