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
  const check = CONTAINERS.has(defOf(schema).type) ? generated(schema) : compile(schema, checkerOf);
  compiled.set(schema, check);
  return check;
}

/** The closure-built checker of a schema (the generated one's twin; the tests compare both with zod). */
export function closureCheckerOf(schema: z.ZodType): Check | null {
  if (closures.has(schema)) return closures.get(schema)!;
  closures.set(schema, null);
  const check = compile(schema, closureCheckerOf);
  closures.set(schema, check);
  return check;
}
const closures = new WeakMap<z.ZodType, Check | null>();

function compile(schema: z.ZodType, checkerOf: (schema: z.ZodType) => Check | null): Check | null {
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
      return compileObject(def, checkerOf);
    case 'record':
      return compileRecord(def, checkerOf);
    default:
      return null;
  }
}

/** A record (`{ fr: Guides }`) of plain string keys: zod's copy has the same keys and values. */
function compileRecord(def: Def, checkerOf: (schema: z.ZodType) => Check | null): Check | null {
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

function compileObject(def: Def, checkerOf: (schema: z.ZodType) => Check | null): Check | null {
  // Only loose objects: zod's copy of any other object drops (or refuses) unknown keys.
  if (!def.catchall || defOf(def.catchall).type !== 'unknown') return null;
  const fields: Field[] = [];
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    const field = compileField(key, child, checkerOf);
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

function compileField(
  key: string,
  schema: z.ZodType,
  checkerOf: (schema: z.ZodType) => Check | null,
): Field | null {
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

/**
 * Arrays, objects and records get a checker generated for their schema (`new Function`): each has
 * its own inline caches, so an object's keys are read as named properties of one or two maps, and
 * its fields' checks are inline expressions, where the closures above read every key through one
 * megamorphic keyed load and call a closure per field (issue 33: 40 → 14 µs a sections page warm).
 * The source holds only the schema's own keys (quoted by `JSON.stringify`) and literal values of
 * JSON's kinds; anything else is passed in (`e0`, `e1`…). What it accepts is exactly what the
 * closures accept, in the same order (a default is filled before a later key refuses, as there).
 */
const CONTAINERS = new Set(['array', 'object', 'record']);

function generated(schema: z.ZodType): Check | null {
  const def = defOf(schema);
  if (def.checks && def.checks.length > 0) return null;
  const env: unknown[] = [];
  const body =
    def.type === 'array'
      ? arraySource(def, env)
      : def.type === 'object'
        ? objectSource(def, env)
        : recordSource(def, env);
  if (body === null) return null;
  try {
    // The source is built from docsync's own schemas, never from an answer.
    const make = new Function(...env.map((_, i) => `e${i}`), `return function check(v) {\n${body}\n};`);
    return (make as (...values: unknown[]) => Check)(...env);
  } catch {
    return compile(schema, checkerOf); // code generation disallowed (`--disallow-code-generation-from-strings`)
  }
}

/** The name the source refers to `value` by. */
const ref = (env: unknown[], value: unknown): string => `e${env.push(value) - 1}`;

/** A JSON value written as a literal: a string, a finite number, a boolean or null. */
const isWritable = (v: unknown): boolean =>
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  v === null ||
  (typeof v === 'number' && Number.isFinite(v));

/** An expression saying whether `x` passes `schema`, or null where the closures would have no checker. */
function sourceOf(schema: z.ZodType, env: unknown[]): string | null {
  const def = defOf(schema);
  if (def.checks && def.checks.length > 0) return null;
  switch (def.type) {
    case 'string':
      return 'typeof x === "string"';
    case 'number':
      return '(typeof x === "number" && Number.isFinite(x))';
    case 'boolean':
      return 'typeof x === "boolean"';
    case 'null':
      return 'x === null';
    case 'unknown':
    case 'any':
      return 'true';
    case 'literal':
      return oneOfSource(def.values ?? [], env);
    case 'enum':
      return oneOfSource(Object.values(def.entries ?? {}), env);
    case 'nullable': {
      const inner = sourceOf(def.innerType!, env);
      return inner && `(x === null || ${inner})`;
    }
    case 'array':
    case 'object':
    case 'record': {
      const check = checkerOf(schema);
      return check && `${ref(env, check)}(x)`;
    }
    default:
      return null;
  }
}

/** `x` is one of `values` (compared as `includes` and a set's `has` compare JSON's values). */
function oneOfSource(values: unknown[], env: unknown[]): string {
  if (values.length === 0) return 'false';
  if (values.length <= 16 && values.every(isWritable))
    return `(${values.map((value) => `x === ${JSON.stringify(value)}`).join(' || ')})`;
  return `${ref(env, new Set(values))}.has(x)`;
}

function arraySource(def: Def, env: unknown[]): string | null {
  const item = sourceOf(def.element!, env);
  if (item === null) return null;
  return `if (!Array.isArray(v)) return false;
for (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${item})) return false; }
return true;`;
}

function recordSource(def: Def, env: unknown[]): string | null {
  const key = defOf(def.keyType!);
  if (key.type !== 'string' || (key.checks && key.checks.length > 0)) return null;
  const value = sourceOf(def.valueType!, env);
  if (value === null) return null;
  return `if (typeof v !== "object" || v === null || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
for (const k in v) { if (k === "__proto__") return false; const x = v[k]; if (!(${value})) return false; }
return true;`;
}

function objectSource(def: Def, env: unknown[]): string | null {
  if (!def.catchall || defOf(def.catchall).type !== 'unknown') return null;
  const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;', 'let x;'];
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    const line = fieldSource(JSON.stringify(key), child, env);
    if (line === null) return null;
    lines.push(line);
  }
  lines.push('return true;');
  return lines.join('\n');
}

/** The statements checking one key (`k`, quoted), as `compileField` checks it. */
function fieldSource(k: string, schema: z.ZodType, env: unknown[]): string | null {
  const def = defOf(schema);
  if (def.type === 'optional') {
    const check = sourceOf(def.innerType!, env);
    return check && `x = v[${k}]; if (x !== undefined && !(${check})) return false;`;
  }
  if (def.type === 'default') {
    const check = sourceOf(def.innerType!, env);
    // zod's `defaultValue` is a getter that hands out a fresh copy each time.
    return (
      check &&
      `x = v[${k}]; if (x === undefined) v[${k}] = ${ref(env, def)}.defaultValue; else if (!(${check})) return false;`
    );
  }
  const check = sourceOf(schema, env);
  return check && `x = v[${k}]; if (x === undefined || !(${check})) return false;`;
}
