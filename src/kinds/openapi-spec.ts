import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { countLive, type DiffContext } from '../diff/context.js';
import { createHash } from 'node:crypto';
import { SET_AFTER_CREATION } from '../model/change.js';
import { defined } from './fields.js';
import { callBelow, deleteCall } from './types.js';
import type { ListKind } from './shapes.js';
import type { KindExamples } from './examples.js';

/** OpenAPI specifications of an organization, by slug. Everything docsync knows about the kind. */

/** Where a spec comes from: a URL the API fetches, or the document's text itself (today's API). */
type Source = { url: string } | { text: string };

export type OpenApiSpecOp =
  | ({ type: 'create-openapi-spec'; org: string; slug: string } & Source)
  | ({ type: 'update-openapi-spec'; org: string; slug: string } & Source)
  | { type: 'delete-openapi-spec'; org: string; slug: string }
  | { type: 'update-openapi-spec-visibility'; org: string; slug: string; visibility: Visibility };

/** Who may read a spec (today's API): `private`, or `public` to anyone with its public link. */
const visibilities = ['private', 'public'] as const;
type Visibility = (typeof visibilities)[number];

/**
 * Text of a spec document: at most 1,000,000 characters (docsync's limit: the official document
 * states none for `source.text`), inline or from a file.
 */
export const TEXT_MAX = 1_000_000;

export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const Config = z.strictObject({
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(slugPattern, 'must be lowercase words joined by -')
    .describe('Identity of the spec. The API cannot rename a slug: a new slug is a new spec.'),
  source: z
    .union([
      z.url().max(2048),
      z.strictObject({
        text: z
          .string()
          .min(1)
          .max(TEXT_MAX)
          .describe(
            'The OpenAPI document itself (JSON or YAML), sent as the source text (current API). Compared with the raw text the API keeps (GET …/versions/latest/content/raw); a plan shows its hash, never the text.',
          ),
      }),
      z.strictObject({
        file: z
          .string()
          .min(1)
          .describe(
            `The OpenAPI document read from a file of the config repository (current API), relative to this YAML file: inside the repository, no symbolic link on the way, a regular file of at most ${TEXT_MAX} characters. Sent as the source text, as \`{ text: … }\` is; a plan shows its hash.`,
          ),
      }),
    ])
    .describe(
      'URL of the OpenAPI document, or `{ text: … }`: the document itself, or `{ file: … }`: the document read from a file.',
    ),
  visibility: z
    .enum(visibilities)
    .optional()
    .describe(
      'Optional (current API): private, or public (anyone with its public link may read it). Omitted: unmanaged.',
    ),
});
type Config = z.infer<typeof Config>;

/** Desired and live: the slug and the source URL (null when the API has none). */
export type DesiredOpenApiSpec = { slug: string; source: string | { text: string }; visibility?: Visibility };
/** `text`: the raw text the API keeps, read for specs without a source URL (undefined: not read). */
export type LiveOpenApiSpec = {
  slug: string;
  source: string | null;
  text?: string | null;
  visibility?: Visibility | null;
};

/** A text as plans show it: its hash, the same however its end is padded. */
const textHash = (text: string) =>
  `sha256:${createHash('sha256').update(text.trim()).digest('hex').slice(0, 12)}`;

/** A spec's source as plans show it, and as the API takes it. */
const shown = (s: string | { text: string } | null) =>
  s === null || typeof s === 'string' ? s : textHash(s.text);
const bodySource = (s: string | { text: string }): Source =>
  typeof s === 'string' ? { url: s } : { text: s.text };
const liveShown = (l: LiveOpenApiSpec) => (l.source !== null ? l.source : l.text ? textHash(l.text) : null);

const RawAnswer = z.looseObject({ text: z.string() });
type RawAnswer = z.infer<typeof RawAnswer>;

const Answer = z.looseObject({
  slug: z.string(),
  sourceURL: z.string().nullable().optional(),
  visibility: z.enum(visibilities).nullable().optional(),
});
type Answer = z.infer<typeof Answer>;

const LIST = '/orgs/{org}/openapi';
const ROUTE = '/orgs/{org}/openapi/{slug}';
const RAW = '/orgs/{org}/openapi/{slug}/versions/latest/content/raw';
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
        after: { source: shown(d.source) },
        op: { type: 'create-openapi-spec', org: ctx.org, slug: d.slug, ...bodySource(d.source) },
      });
    else if (liveShown(l) !== shown(d.source))
      drafts.update({
        address: addr,
        before: { source: liveShown(l) },
        after: { source: shown(d.source) },
        op: { type: 'update-openapi-spec', org: ctx.org, slug: d.slug, ...bodySource(d.source) },
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
      before: { source: liveShown(l) },
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
      notes: [
        '`source` is a URL, or (current API) `{ text: … }`: the document itself, inline, or `{ file: path/in/repo.yaml }`: the document read from a file of the config repository, relative to the YAML file naming it (confined as decision 13 says: inside the repository, no symbolic link, no VCS metadata, a regular file, at most 1,000,000 characters; not a secret, so it is not redacted). Its text is compared with the raw text the API keeps (`GET …/versions/latest/content/raw`, read only for specs without a source URL); plans show a hash of it. Export writes the text back inline (`{ text: … }`): the API does not know a file. Keep such a file outside the config folder (or not named `*.yaml`/`*.yml`): every YAML file of the config folder is read as config.',
      ],
      example: [{ slug: 'petstore', source: 'https://example.com/openapi/petstore.yaml' }],
    },
    'openapi[].source': {
      title: 'source',
      notes: [
        'A URL the API fetches the document from, or (current API) `{ text: … }`, the document itself, or `{ file: … }`, the document read from a file: see `openapi[]`.',
      ],
    },
  },
  unique: { what: 'OpenAPI spec', key: 'slug' },
  absentKeys: { in: ['seed'], paths: ['visibility', 'source.text', 'source.file'] },
  // `{ file }`: read by the loader with the confinement of decision 13, as a document (not a secret).
  indirect: {
    key: 'source',
    source: (o) => (typeof o.source === 'object' && 'file' in o.source ? { file: o.source.file } : undefined),
    maxChars: TEXT_MAX,
    content: (text) => (text.trim() === '' ? 'is empty' : undefined),
    secret: false,
  },
  normalize: (o, { documents }) =>
    defined({
      slug: o.slug,
      source:
        typeof o.source === 'object' && 'file' in o.source ? { text: documents.get(o) ?? '' } : o.source,
      visibility: o.visibility,
    }),
  reads: [
    {
      list,
      live: (x: Answer) => ({
        slug: x.slug,
        source: x.sourceURL ?? null,
        ...(x.visibility !== undefined ? { visibility: x.visibility } : {}),
      }),
      children: {
        prepare: (desired: DesiredOpenApiSpec[]) =>
          new Set(desired.flatMap((d) => (typeof d.source === 'string' ? [] : [d.slug]))),
        reads: [
          // A spec made from text has no source URL: its text is read back (today's API only).
          callBelow({
            absentIn: ['seed'],
            wanted: (spec: LiveOpenApiSpec, slugs: Set<string>) => slugs.has(spec.slug),
            applies: (spec: LiveOpenApiSpec) => spec.source === null,
            call: (org: string, spec: LiveOpenApiSpec) => ({
              method: 'GET',
              route: RAW,
              params: { org, slug: spec.slug },
              expect: [200],
              answer: RawAnswer,
            }),
            attach: (spec: LiveOpenApiSpec, answer) => ({ ...spec, text: (answer as RawAnswer).text }),
          }),
        ],
      },
    },
  ],
  diff,
  export: {
    file: 'organization.yaml',
    header: 'OpenAPI specs',
    entries: (live) =>
      live?.flatMap((x) => {
        const source = x.source ?? (x.text ? { text: x.text } : undefined);
        return source
          ? [{ slug: x.slug, source, ...(x.visibility ? { visibility: x.visibility } : {}) }]
          : [];
      }),
  },
  ops: {
    'create-openapi-spec': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { slug: op.slug, source: 'url' in op ? { url: op.url } : { text: op.text } },
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
        body: { source: 'url' in op ? { url: op.url } : { text: op.text } },
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
