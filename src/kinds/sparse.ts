import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import { same } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiCall } from '../model/api-call.js';
import type { ApiCapabilities } from '../model/capabilities.js';
import type { OpShape } from '../model/index.js';
import { dict } from '../model/dict.js';

/**
 * Documents managed sparsely (a site's customization, its agent settings): the config gives some
 * keys of a document the API replaces whole; only those keys (their deep paths) are compared and
 * written, the rest of the live document is kept as it is. Pure: the plan computes the document
 * to send from the live one and the config (decision 0037).
 */

export type SparseDoc = Record<string, unknown>;

/** One key the config gives, at its deep path (`styling.primaryColor.light`), and its value. */
export type SparseLeaf = { path: string[]; value: unknown };

/** One managed key whose live value differs (`before` is null where the live document lacks it). */
export type SparseChange = { path: string; before: unknown; after: unknown };

const isPlain = (v: unknown): v is SparseDoc => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The keys a sparse value gives, at their deep paths. An object is walked into, unless it is empty
 * or its path is `atomic` (a value replaced whole: a favicon, which is one of several shapes);
 * anything else (a string, a number, null, a list) is one key.
 */
export function sparseLeaves(doc: SparseDoc, atomic: ReadonlySet<string> = new Set()): SparseLeaf[] {
  const out: SparseLeaf[] = [];
  const walk = (value: SparseDoc, prefix: string[]) => {
    for (const [key, v] of Object.entries(value)) {
      const path = [...prefix, key];
      if (isPlain(v) && Object.keys(v).length > 0 && !atomic.has(path.join('.'))) walk(v, path);
      else out.push({ path, value: v });
    }
  };
  walk(doc, []);
  return out;
}

/** The value at a deep path (undefined where the document lacks it). */
export function valueAtPath(doc: unknown, path: readonly string[]): unknown {
  let at: unknown = doc;
  for (const key of path) {
    if (!isPlain(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** A copy of an object as a prototype-less one (keys from API data stay ordinary keys). */
function copyOf(value: unknown): SparseDoc {
  const out = dict<unknown>();
  if (isPlain(value)) for (const [k, v] of Object.entries(value)) out[k] = v;
  return out;
}

/** The document with the value set at a deep path (copied along the path; the input is unchanged). */
export function withValueAt(doc: SparseDoc, path: readonly string[], value: unknown): SparseDoc {
  const [key, ...rest] = path;
  if (key === undefined) return doc;
  const out = copyOf(doc);
  out[key] = rest.length === 0 ? value : withValueAt(copyOf(doc[key]), rest, value);
  return out;
}

/** The managed keys whose live value differs, in the config's order. */
export function sparseChanges(
  desired: SparseDoc,
  live: SparseDoc | null | undefined,
  atomic: ReadonlySet<string> = new Set(),
): SparseChange[] {
  return sparseLeaves(desired, atomic).flatMap(({ path, value }) => {
    const current = valueAtPath(live ?? {}, path);
    return same(value, current) ? [] : [{ path: path.join('.'), before: current ?? null, after: value }];
  });
}

/** The live document with the config's keys set: what a replacing call sends. */
export function mergeSparse(
  live: SparseDoc,
  desired: SparseDoc,
  atomic: ReadonlySet<string> = new Set(),
): SparseDoc {
  return sparseLeaves(desired, atomic).reduce((doc, { path, value }) => withValueAt(doc, path, value), live);
}

/**
 * The plan's fields of a sparse update: `before` and `after` keyed by the changed paths only
 * (`styling.primaryColor.light: "#346DDB" → "#0055FF"`), never the whole documents.
 */
export function changeFields(changes: readonly SparseChange[]): {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
} {
  const before = dict<unknown>();
  const after = dict<unknown>();
  for (const c of changes) {
    before[c.path] = c.before;
    after[c.path] = c.after;
  }
  return { before, after };
}

/**
 * The keys of a document that differ from the defaults, as a sparse document of plain objects
 * (what export writes: planned against the same live document, it changes nothing).
 */
export function nonDefault(
  doc: SparseDoc,
  defaults: SparseDoc,
  atomic: ReadonlySet<string> = new Set(),
): SparseDoc {
  const kept = sparseLeaves(doc, atomic).filter(
    ({ path, value }) => !same(value, valueAtPath(defaults, path)),
  );
  const out = kept.reduce<SparseDoc>(
    (acc, { path, value }) => withValueAt(acc, path, value),
    dict<unknown>(),
  );
  return JSON.parse(JSON.stringify(out)) as SparseDoc;
}

/** The read of a site's sparse document: one GET of its route, the answer made a document by `live`. */
export function sparseRead<A>(route: string, answer: z.ZodType<A>, live: (answer: A) => SparseDoc) {
  return {
    call: (org: string, site: string): ApiCall => ({
      method: 'GET',
      route,
      params: { org, site },
      expect: [200],
      answer,
    }),
    live,
  };
}

/** What export writes of a site's sparse document: the keys that differ from a new site's (today's API only). */
export function exportSparse<C>(
  live: SparseDoc | null | undefined,
  caps: ApiCapabilities,
  defaults: SparseDoc,
  atomic: ReadonlySet<string>,
): C | undefined {
  if (caps.flavor === 'seed' || !live) return undefined;
  const doc = nonDefault(live, defaults, atomic);
  return Object.keys(doc).length > 0 ? (doc as C) : undefined;
}

/**
 * A site's sparse document diffed (its customization, its agent settings): one update of the
 * changed keys, whose operation sends the live document with the config's keys set. `live` is
 * undefined for a site this plan creates: its document is then the facet's `defaults` (those of a
 * new site), so the plan shows the keys that differ from them and sends the defaults with the
 * config's keys set, after the site's creation.
 */
export function diffSparseFacet<O extends OpShape>(
  ctx: DiffContext,
  facet: { kind: string; key: string; atomic: ReadonlySet<string>; defaults: SparseDoc },
  site: SiteScope,
  desired: SparseDoc,
  live: SparseDoc | null | undefined,
  op: (document: SparseDoc) => O,
): void {
  const current = live === undefined ? facet.defaults : (live ?? {});
  const changes = sparseChanges(desired, current, facet.atomic);
  if (changes.length === 0) return;
  const { before, after } = changeFields(changes);
  kindDrafts<O>(ctx, facet.kind).update({
    address: `${site.addr}/${facet.key}`,
    before: live === undefined ? null : before,
    after,
    deps: [site.createKey],
    op: op(mergeSparse(current, desired, facet.atomic)),
  });
}

/**
 * The reference's entries for the objects nested in a sparse document's schema (each documented
 * under its path, `sites[].customization.styling`), named by their key.
 */
export function nestedDocs(prefix: string, schema: z.ZodType): Record<string, { title: string }> {
  const out: Record<string, { title: string }> = {};
  const walk = (at: string, s: z.ZodType) => {
    const inner = s instanceof z.ZodOptional || s instanceof z.ZodNullable ? (s.unwrap() as z.ZodType) : s;
    if (inner !== s) return walk(at, inner);
    if (!(s instanceof z.ZodObject)) return;
    if (at !== prefix) out[at] = { title: at.slice(at.lastIndexOf('.') + 1) };
    for (const [key, child] of Object.entries(s.shape as Record<string, z.ZodType>))
      walk(`${at}.${key}`, child);
  };
  walk(prefix, schema);
  return out;
}

/**
 * A sparse document's schema whose values at `paths` (deep, `styling.theme`) also take `null`: a
 * PATCH that resets a key by null (a site space's overrides). Objects on the way are rebuilt
 * (strict, as the schema's are), with their descriptions.
 */
export function nullableAt<T extends z.ZodType>(
  schema: T,
  paths: ReadonlySet<string>,
  prefix = '',
): z.ZodType {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (!(inner instanceof z.ZodObject)) return schema;
  const shape = Object.fromEntries(
    Object.entries(inner.shape as Record<string, z.ZodType>).map(([key, child]) => {
      const path = `${prefix}${key}`;
      if (!paths.has(path)) return [key, nullableAt(child, paths, `${path}.`)];
      const value = child instanceof z.ZodOptional ? (child.unwrap() as z.ZodType) : child;
      const nullable = value.nullable().optional();
      return [key, child.description ? nullable.describe(child.description) : nullable];
    }),
  );
  const rebuilt = z.strictObject(shape);
  const described = inner.description ? rebuilt.describe(inner.description) : rebuilt;
  if (!(schema instanceof z.ZodOptional)) return described;
  return schema.description ? described.optional().describe(schema.description) : described.optional();
}
