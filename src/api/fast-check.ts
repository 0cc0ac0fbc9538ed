import type { z } from 'zod';

/**
 * A check that a JSON answer already is what a lenient answer schema would return, without
 * building a copy: list answers of a large organization are tens of megabytes, and zod's parse
 * allocates a new object for every object in them (decision 27). It covers the schema forms answer
 * schemas use (loose objects, arrays, strings, numbers, booleans, null, literals, enums,
 * optional, nullable, default, records with plain string keys); a schema with anything else (checks, unions, transforms, objects
 * that strip unknown keys…) gets no checker, and any answer the checker does not accept goes to
 * zod, which decides and words the field error. So zod stays the judge; this only skips its copy.
 *
 * `default` fills the missing value in place, as zod would in its copy: the body is the client's
 * own freshly parsed JSON, not shared with anyone.
 */
type Check = (value: unknown) => boolean;

const compiled = new WeakMap<z.ZodType, Check | null>();

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  checks?: unknown[];
  defaultValue?: unknown;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The checker of a schema, or null when the schema uses a form this module does not cover. */
export function checkerOf(schema: z.ZodType): Check | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  compiled.set(schema, null); // a recursive schema is not covered
  const check = compile(schema);
  compiled.set(schema, check);
  return check;
}

function compile(schema: z.ZodType): Check | null {
  const def = defOf(schema);
  if (def.checks && def.checks.length > 0) return null;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal': {
      const values = def.values ?? [];
      return (v) => values.includes(v);
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v as never);
    }
    case 'nullable': {
      const inner = checkerOf(def.innerType!);
      return inner && ((v) => v === null || inner(v));
    }
    case 'array': {
      const item = checkerOf(def.element!);
      return (
        item &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          for (const x of v) if (!item(x)) return false;
          return true;
        })
      );
    }
    case 'object':
      return compileObject(def);
    case 'record':
      return compileRecord(def);
    default:
      return null;
  }
}

/** A record (`{ fr: Guides }`) of plain string keys: zod's copy has the same keys and values. */
function compileRecord(def: Def): Check | null {
  const key = defOf(def.keyType!);
  if (key.type !== 'string' || (key.checks && key.checks.length > 0)) return null;
  const value = checkerOf(def.valueType!);
  return (
    value &&
    ((v) => {
      if (!isObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
      for (const k in v) if (k === '__proto__' || !value(v[k])) return false;
      return true;
    })
  );
}

/** How one key of an object is checked: required, optional (absent is fine), or defaulted. */
type Field = { key: string; check: Check; absent: 'fail' | 'ok' | { fill: () => unknown } };

function compileObject(def: Def): Check | null {
  // Only loose objects: zod's copy of any other object drops (or refuses) unknown keys.
  if (!def.catchall || defOf(def.catchall).type !== 'unknown') return null;
  const fields: Field[] = [];
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    const field = compileField(key, child);
    if (!field) return null;
    fields.push(field);
  }
  return (v) => {
    if (!isObject(v)) return false;
    for (const f of fields) {
      const value = v[f.key];
      if (value === undefined) {
        if (f.absent === 'fail') return false;
        if (f.absent !== 'ok') v[f.key] = f.absent.fill();
        continue;
      }
      if (!f.check(value)) return false;
    }
    return true;
  };
}

function compileField(key: string, schema: z.ZodType): Field | null {
  const def = defOf(schema);
  if (def.type === 'optional') {
    const check = checkerOf(def.innerType!);
    return check && { key, check, absent: 'ok' };
  }
  if (def.type === 'default') {
    const check = checkerOf(def.innerType!);
    // zod's `defaultValue` is a getter that hands out a fresh copy each time.
    return check && { key, check, absent: { fill: () => def.defaultValue } };
  }
  const check = checkerOf(schema);
  return check && { key, check, absent: 'fail' };
}
