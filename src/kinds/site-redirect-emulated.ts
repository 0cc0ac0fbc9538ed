import { z } from 'zod';
import { emulated, type EmulatedContext } from './emulated.js';
import { StructureTarget } from './site-section.js';
import { BULK_MAX, LIST, LiveDestination, ROUTE, Source } from './site-redirect-api.js';

/** The emulator's redirect: the official answer's fields. */
type Emulated = {
  id: string;
  source: string;
  destination: LiveDestination;
  permanent: boolean;
  captureWildcard: boolean;
  draft: boolean;
  createdAt: string;
  updatedAt?: string;
};

/** A destination as the official document takes it (the emulator's check of a request). */
export const ApiDestination = z.union([
  ...StructureTarget.options,
  z.object({ kind: z.literal('external'), url: z.string().url() }),
]);

const Upsert = z.object({
  source: Source,
  intent: z.enum(['live', 'draft']).default('live'),
  destination: ApiDestination.nullable(),
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
});
const Promote = z.object({ source: Source, intent: z.literal('publish') });
const BulkBody = z.object({
  redirects: z
    .array(z.union([Promote, Upsert]))
    .min(1)
    .max(BULK_MAX, `at most ${BULK_MAX} redirects a call`),
});

type Result =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

function upsert(list: Emulated[], item: z.infer<typeof Upsert>, ctx: EmulatedContext): Result {
  const draft = item.intent === 'draft';
  const found = list.find((r) => r.source === item.source && r.draft === draft);
  if (item.destination === null) {
    if (!found) return { status: 'error', source: item.source, draft, error: 'no redirect for this source' };
    list.splice(list.indexOf(found), 1);
    return { status: 'deleted', source: item.source, draft };
  }
  if (found) {
    found.destination = item.destination;
    if (item.permanent !== undefined) found.permanent = item.permanent;
    if (item.captureWildcard !== undefined) found.captureWildcard = item.captureWildcard;
    found.updatedAt = ctx.now();
    return { status: 'updated', source: item.source, draft, id: found.id };
  }
  const made: Emulated = {
    id: ctx.id(),
    source: item.source,
    destination: item.destination,
    permanent: item.permanent ?? false,
    captureWildcard: item.captureWildcard ?? false,
    draft,
    createdAt: ctx.now(),
  };
  list.push(made);
  return { status: 'created', source: item.source, draft, id: made.id };
}

function promote(list: Emulated[], source: string, ctx: EmulatedContext): Result {
  const draft = list.find((r) => r.source === source && r.draft);
  if (!draft) return { status: 'error', source, draft: true, error: 'no draft redirect for this source' };
  const live = list.find((r) => r.source === source && !r.draft);
  if (live) list.splice(list.indexOf(live), 1);
  draft.draft = false;
  draft.updatedAt = ctx.now();
  return { status: 'published', source, draft: false, id: draft.id };
}

/** The bulk call's effect on a site's redirects, and its answer. */
function bulk(list: Emulated[], body: z.infer<typeof BulkBody>, ctx: EmulatedContext) {
  const results = body.redirects.map((item) =>
    item.intent === 'publish'
      ? promote(list, item.source, ctx)
      : upsert(list, item as z.infer<typeof Upsert>, ctx),
  );
  return { results };
}

/** The emulator's answer for one redirect. */
export const redirectAnswer = (r: Emulated) => ({
  object: 'site-redirect',
  id: r.id,
  source: r.source,
  draft: r.draft,
  captureWildcard: r.captureWildcard,
  permanent: r.permanent,
  destination: r.destination,
  createdAt: r.createdAt,
  ...(r.updatedAt ? { updatedAt: r.updatedAt } : {}),
});
export type EmulatedRedirect = Emulated;

export const emulator = emulated({
  in: 'sites',
  store: 'redirects',
  routes: { list: LIST, item: ROUTE },
  noun: 'site redirect',
  idPrefix: 'redir',
  create: {
    body: z.object({
      source: Source,
      destination: ApiDestination,
      permanent: z.boolean().optional(),
      captureWildcard: z.boolean().optional(),
      draft: z.boolean().optional(),
    }),
    item: (b, ctx): Emulated => ({
      id: ctx.id(),
      source: b.source,
      destination: b.destination,
      permanent: b.permanent ?? false,
      captureWildcard: b.captureWildcard ?? false,
      draft: b.draft ?? false,
      createdAt: ctx.now(),
    }),
  },
  update: {
    method: 'PATCH',
    body: z.object({
      source: Source.optional(),
      destination: ApiDestination.optional(),
      permanent: z.boolean().optional(),
      captureWildcard: z.boolean().optional(),
      draft: z.boolean().optional(),
    }),
    apply: (r, b, ctx) => {
      if (b.source !== undefined) r.source = b.source;
      if (b.destination !== undefined) r.destination = b.destination;
      if (b.permanent !== undefined) r.permanent = b.permanent;
      if (b.captureWildcard !== undefined) r.captureWildcard = b.captureWildcard;
      if (b.draft !== undefined) r.draft = b.draft;
      r.updatedAt = ctx.now();
    },
  },
  delete: { status: 205 },
  answer: redirectAnswer,
  seed: {
    entry: z.looseObject({
      id: z.string().optional(),
      source: z.string(),
      destination: LiveDestination,
      permanent: z.boolean().default(false),
      captureWildcard: z.boolean().default(false),
    }),
    item: (x, ctx): Emulated => ({
      id: x.id ?? ctx.id(),
      source: x.source,
      destination: x.destination,
      permanent: x.permanent,
      captureWildcard: x.captureWildcard,
      draft: false,
      createdAt: ctx.now(),
    }),
  },
  bulk: { method: 'PUT', body: BulkBody, apply: bulk },
  // Live redirects only, as the API's list answers without `draft=true`.
  hooks: { order: (items) => items.filter((r) => !r.draft) },
});
