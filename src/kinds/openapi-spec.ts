import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, type DiffContext } from '../diff/context.js';
import { SET_AFTER_CREATION } from '../model/change.js';
import { defined } from './fields.js';
import { deleteCall } from './types.js';
import type { ListKind } from './shapes.js';
import type { KindExamples } from './examples.js';

/** OpenAPI specifications of an organization, by slug. Everything docsync knows about the kind. */

export type OpenApiSpecOp =
  | { type: 'create-openapi-spec'; org: string; slug: string; url: string }
  | { type: 'update-openapi-spec'; org: string; slug: string; url: string }
  | { type: 'delete-openapi-spec'; org: string; slug: string }
  | { type: 'update-openapi-spec-visibility'; org: string; slug: string; visibility: Visibility };

/** Who may read a spec (today's API): `private`, or `public` to anyone with its public link. */
const visibilities = ['private', 'public'] as const;
type Visibility = (typeof visibilities)[number];

export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const Config = z.strictObject({
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(slugPattern, 'must be lowercase words joined by -')
    .describe('Identity of the spec. The API cannot rename a slug: a new slug is a new spec.'),
  source: z.url().max(2048).describe('URL of the OpenAPI document.'),
  visibility: z
    .enum(visibilities)
    .optional()
    .describe(
      'Optional (current API): private, or public (anyone with its public link may read it). Omitted: unmanaged.',
    ),
});
type Config = z.infer<typeof Config>;

/** Desired and live: the slug and the source URL (null when the API has none). */
export type DesiredOpenApiSpec = { slug: string; source: string; visibility?: Visibility };
export type LiveOpenApiSpec = { slug: string; source: string | null; visibility?: Visibility | null };

const Answer = z.looseObject({
  slug: z.string(),
  sourceURL: z.string().nullable().optional(),
  visibility: z.enum(visibilities).nullable().optional(),
});
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/openapi';
const ROUTE = '/orgs/{org}/openapi/{slug}';
const address = (org: string, slug: string) => `${org}/openapi/${slug}`;
const list = (org: string) => ({ route: LIST, params: { org }, item: Answer });

/** Created with their source, PUT to change the source; a slug cannot be renamed. */
function diff(ctx: DiffContext, desired: DesiredOpenApiSpec[], live: LiveOpenApiSpec[]): void {
  const drafts = kindDrafts<OpenApiSpecOp>(ctx, 'openapi-spec');
  countLive(ctx, 'openapi-spec', live.length);
  const bySlug = new Map(live.map((x) => [x.slug, x]));
  for (const d of desired) {
    const addr = address(ctx.org, d.slug);
    const l = bySlug.get(d.slug);
    let createKey: string | undefined;
    if (!l)
      createKey = drafts.create({
        address: addr,
        after: { source: d.source },
        op: { type: 'create-openapi-spec', org: ctx.org, slug: d.slug, url: d.source },
      });
    else if (l.source !== d.source)
      drafts.update({
        address: addr,
        before: { source: l.source },
        after: { source: d.source },
        op: { type: 'update-openapi-spec', org: ctx.org, slug: d.slug, url: d.source },
      });
    // Its own call: the creation cannot take it.
    if (d.visibility !== undefined && (!l || (l.visibility ?? null) !== d.visibility))
      drafts.update({
        key: `visibility:${addr}`,
        address: addr,
        before: l ? { visibility: l.visibility ?? null } : null,
        after: { visibility: d.visibility },
        deps: [createKey],
        ...(l ? {} : { note: SET_AFTER_CREATION }),
        op: { type: 'update-openapi-spec-visibility', org: ctx.org, slug: d.slug, visibility: d.visibility },
      });
  }
  const wanted = new Set(desired.map((d) => d.slug));
  for (const l of live) {
    if (wanted.has(l.slug)) continue;
    const addr = address(ctx.org, l.slug);
    drafts.prune({
      address: addr,
      before: { source: l.source },
      op: { type: 'delete-openapi-spec', org: ctx.org, slug: l.slug },
    });
  }
}

export const openApiSpecKind: ListKind<
  'openapi',
  Config,
  DesiredOpenApiSpec,
  LiveOpenApiSpec,
  OpenApiSpecOp,
  'openapi-spec'
> = {
  kind: 'openapi-spec',
  key: 'openapi',
  config: Config,
  docs: {
    'openapi[]': {
      title: 'OpenAPI specifications',
      identity: '`slug`',
      example: [{ slug: 'petstore', source: 'https://example.com/openapi/petstore.yaml' }],
    },
  },
  unique: { what: 'OpenAPI spec', key: 'slug' },
  absentKeys: { in: ['seed'], paths: ['visibility'] },
  normalize: (o) => defined({ slug: o.slug, source: o.source, visibility: o.visibility }),
  reads: [
    {
      list,
      live: (x: Answer) => ({
        slug: x.slug,
        source: x.sourceURL ?? null,
        ...(x.visibility !== undefined ? { visibility: x.visibility } : {}),
      }),
    },
  ],
  diff,
  export: {
    file: 'organization.yaml',
    header: 'OpenAPI specs',
    entries: (live) =>
      live?.flatMap((x) =>
        x.source
          ? [{ slug: x.slug, source: x.source, ...(x.visibility ? { visibility: x.visibility } : {}) }]
          : [],
      ),
  },
  ops: {
    'create-openapi-spec': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { slug: op.slug, source: { url: op.url } },
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output: (_answer: unknown, op) => ({ id: op.slug }),
      adopt: {
        list: (op) => list(op.org),
        find: (s: Answer, op) => s.slug === op.slug,
        output: (s: Answer) => ({ id: s.slug }),
      },
    },
    'update-openapi-spec': {
      call: (op) => ({
        method: 'PUT',
        route: ROUTE,
        params: { org: op.org, slug: op.slug },
        body: { source: { url: op.url } },
        expect: [200, 201],
        answer: Answer,
      }),
    },
    'update-openapi-spec-visibility': {
      absentIn: ['seed'],
      call: (op) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { org: op.org, slug: op.slug },
        body: { visibility: op.visibility },
        expect: [200],
      }),
    },
    'delete-openapi-spec': {
      call: (op, _r, caps) => deleteCall(ROUTE, { org: op.org, slug: op.slug }, caps),
    },
  },
  examples: {
    pairs: [
      {
        config: { slug: 'petstore', source: 'https://example.com/petstore.yaml' },
        seed: { slug: 'petstore', source: 'https://example.com/petstore.yaml' },
        changed: { slug: 'petstore', source: 'https://example.com/petstore-v2.yaml' },
      },
      {
        config: { slug: 'billing', source: 'https://example.com/billing.yaml' },
        seed: { slug: 'billing', source: 'https://example.com/billing.yaml' },
        changed: { slug: 'billing', source: 'https://example.com/billing-v2.yaml' },
      },
    ],
  } satisfies KindExamples<Config>,
};
