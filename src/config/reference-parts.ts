import { configJsonSchema } from './json-schema.js';

/**
 * The parts of the config's JSON Schema that docs/configuration.md documents (reference-doc.ts
 * renders them): each object-valued key and list of objects with its own section, depth first, and
 * the parts documented by a link to an earlier one with the same keys. Pure: schema in, parts out.
 */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  definitions?: Record<string, Schema>;
  $defs?: Record<string, Schema>;
};

export type Part = { path: string; schema: Schema; alternatives: Schema[] };

export const HUGE = Number.MAX_SAFE_INTEGER;

export function resolver(root: Schema): Resolve {
  const resolve = (s: Schema): Schema => {
    if (!s.$ref) return s;
    const m = /^#\/(definitions|\$defs)\/(.+)$/.exec(s.$ref);
    const target = m ? root[m[1] as 'definitions' | '$defs']?.[decodeURIComponent(m[2]!)] : undefined;
    if (!target) throw new Error(`cannot resolve ${s.$ref} in the config JSON Schema`);
    const { $ref: _ref, ...rest } = s;
    return resolve({ ...target, ...rest });
  };
  return resolve;
}

export const alternativesOf = (s: Schema): Schema[] => s.anyOf ?? s.oneOf ?? [s];
const isNull = (s: Schema) => s.type === 'null';
export const isObject = (s: Schema) => s.type === 'object' && s.properties !== undefined;

/** Objects documented in their own section: an object-valued key, or the objects of a list. */
function objectsUnder(raw: Schema, resolve: Resolve): Schema[] {
  const s = resolve(raw);
  const inner = s.type === 'array' && s.items ? resolve(s.items) : s;
  return alternativesOf(inner)
    .map(resolve)
    .filter((a) => !isNull(a) && isObject(a));
}

/** The parts of the reference (one section each), depth first in key order: `policy`, `sites[]`, `sites[].sections[]`… */
export function partsOf(root: Schema): Part[] {
  const resolve = resolver(root);
  const sections: Part[] = [];
  const walk = (path: string, schema: Schema) => {
    for (const [key, raw] of Object.entries(schema.properties ?? {})) {
      const s = resolve(raw);
      const objects = objectsUnder(s, resolve);
      if (objects.length === 0) continue;
      const childPath = `${path ? `${path}.` : ''}${key}${s.type === 'array' ? '[]' : ''}`;
      sections.push({ path: childPath, schema: objects[0]!, alternatives: objects });
      for (const o of objects) walk(childPath, o);
    }
  };
  walk('', root);
  return sections;
}

/** A schema's keys and types without what may differ between copies: descriptions, `null` alternatives. */
function shapeOf(raw: Schema, resolve: Resolve, keepNull = false): unknown {
  const s = resolve(raw);
  const alternatives = (s.anyOf ?? s.oneOf)?.filter((a) => !isNull(resolve(a)));
  if (!keepNull && alternatives?.length === 1) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    return shapeOf({ ...rest, ...resolve(alternatives[0]!) }, resolve);
  }
  const sub = (v: Schema) => shapeOf(v, resolve, keepNull);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'description') continue;
    if (keepNull && (key === 'type' || key === 'enum')) out[key] = value;
    else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      out[key] = types.length === 1 ? types[0] : types;
    } else if (key === 'enum' && Array.isArray(value)) out[key] = value.filter((v) => v !== null);
    else if (Array.isArray(value)) out[key] = value.map(sub);
    else if (value !== null && typeof value === 'object')
      out[key] =
        key === 'properties' || key === 'definitions' || key === '$defs'
          ? Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, sub(v)]))
          : sub(value as Schema);
    else out[key] = value;
  }
  return out;
}

/** A part documented by a link to an earlier part with the same keys (`null` may be allowed here only). */
export type SharedPart = { same: string; nullable: boolean };

const lastKey = (path: string) => path.slice(path.lastIndexOf('.') + 1);
const within = (path: string, parent: string) => path.startsWith(`${parent}.`);

/**
 * The parts documented once: an object value with nested parts whose keys and types (descriptions
 * and `null` aside) are those of an earlier part of the same name (a site space's `customization`,
 * the site's) gets a link to it instead of its own tables, and the parts below it are covered by
 * that link.
 */
function sharedParts(parts: readonly Part[], resolve: Resolve): Map<string, SharedPart> {
  const shared = new Map<string, SharedPart>();
  const firsts = new Map<string, Part>();
  for (const part of parts) {
    if ([...shared.keys()].some((p) => within(part.path, p))) continue;
    // A list's entries are a kind of their own (identity, notes): only object values are shared.
    if (part.path.endsWith('[]') || !parts.some((p) => within(p.path, part.path))) continue;
    const shape = JSON.stringify(part.alternatives.map((a) => shapeOf(a, resolve)));
    const key = `${lastKey(part.path)} ${shape}`;
    const first = firsts.get(key);
    if (!first) {
      firsts.set(key, part);
      continue;
    }
    const exact = (p: Part) => JSON.stringify(p.alternatives.map((a) => shapeOf(a, resolve, true)));
    shared.set(part.path, { same: first.path, nullable: exact(part) !== exact(first) });
  }
  return shared;
}

/**
 * Where each path of the schema is documented: its own section, or (below a shared part) the
 * part whose link covers it. Every path of `documentedPaths` is one of the two.
 */
export function coverage(root: Schema = configJsonSchema() as Schema): {
  own: string[];
  shared: Map<string, SharedPart>;
  coveredBy: Map<string, string>;
} {
  const parts = partsOf(root);
  const shared = sharedParts(parts, resolver(root));
  const coveredBy = new Map<string, string>();
  for (const part of parts)
    for (const p of shared.keys()) if (within(part.path, p)) coveredBy.set(part.path, p);
  return { own: parts.map((p) => p.path).filter((p) => !coveredBy.has(p)), shared, coveredBy };
}

/** The paths that get a section of their own, each of which KIND_DOCS describes. */
export function documentedPaths(root: Schema = configJsonSchema() as Schema): string[] {
  return partsOf(root).map((s) => s.path);
}

/** A schema with its `$ref`s followed (`resolver`). */
export type Resolve = (s: Schema) => Schema;
