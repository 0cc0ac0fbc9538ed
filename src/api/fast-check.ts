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
 * Arrays, objects and records get a checker generated for their schema (`new Function`), one
 * function for the whole schema: its nested objects and arrays are blocks and loops of the same
 * function, each key a named property read with its own inline cache, each field's check an
 * inline expression, where the closures above read every key through one megamorphic keyed load
 * and call a closure per field (issue 33: 40 → 14 µs a sections page warm). One function a page
 * schema is also one compile job, not one per nested schema. The source holds only the schema's
 * own keys (quoted by `JSON.stringify`) and literal values of JSON's kinds; anything else is
 * passed in (`e0`, `e1`…). What it accepts is exactly what the closures accept, in the same order
 * (a default is filled before a later key refuses, as there); a schema met again inside itself
 * (a recursive schema) is not covered, as there.
 */
const CONTAINERS = new Set(['array', 'object', 'record']);

/** Nesting inlined in one function; deeper schemas are checked by a call of their own checker. */
const MAX_INLINE_DEPTH = 8;

/** What a generated function's source is built with. */
type Source = {
  /** Values the source names `e0`, `e1`… */
  env: unknown[];
  /** The schemas being inlined, outermost first. */
  stack: z.ZodType[];
  /** The deepest value variable used (`x1`…). */
  depth: number;
};

function generated(schema: z.ZodType): Check | null {
  const src: Source = { env: [], stack: [], depth: 0 };
  const body = statementsOf(schema, 0, src);
  if (body === null) return null;
  const vars = Array.from({ length: src.depth }, (_, i) => `x${i + 1}`);
  const head = vars.length > 0 ? `let ${vars.join(', ')};\n` : '';
  try {
    // The source is built from docsync's own schemas, never from an answer.
    const make = new Function(
      ...src.env.map((_, i) => `e${i}`),
      `return function check(x0) {\n${head}${body}\nreturn true;\n};`,
    );
    return (make as (...values: unknown[]) => Check)(...src.env);
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

/** Statements that return false unless `x{d}` passes `schema`; null where the closures would have no checker. */
function statementsOf(schema: z.ZodType, d: number, src: Source): string | null {
  const def = defOf(schema);
  if (def.checks && def.checks.length > 0) return null;
  const x = `x${d}`;
  if (def.type === 'nullable') {
    const inner = statementsOf(def.innerType!, d, src);
    return inner && `if (${x} !== null) {\n${inner}\n}`;
  }
  if (!CONTAINERS.has(def.type)) {
    const test = testOf(def, x, src.env);
    return test && `if (!(${test})) return false;`;
  }
  if (src.stack.includes(schema)) return null;
  if (src.stack.length >= MAX_INLINE_DEPTH) {
    const check = checkerOf(schema);
    return check && `if (!${ref(src.env, check)}(${x})) return false;`;
  }
  src.stack.push(schema);
  src.depth = Math.max(src.depth, d + 1);
  const out =
    def.type === 'array'
      ? arraySource(def, d, src)
      : def.type === 'object'
        ? objectSource(def, d, src)
        : recordSource(def, d, src);
  src.stack.pop();
  return out;
}

/** An expression saying whether `x` passes a schema of a single value (not a container, not nullable). */
function testOf(def: Def, x: string, env: unknown[]): string | null {
  switch (def.type) {
    case 'string':
      return `typeof ${x} === "string"`;
    case 'number':
      return `typeof ${x} === "number" && Number.isFinite(${x})`;
    case 'boolean':
      return `typeof ${x} === "boolean"`;
    case 'null':
      return `${x} === null`;
    case 'unknown':
    case 'any':
      return 'true';
    case 'literal':
      return oneOfSource(def.values ?? [], x, env);
    case 'enum':
      return oneOfSource(Object.values(def.entries ?? {}), x, env);
    default:
      return null;
  }
}

/** `x` is one of `values` (compared as `includes` and a set's `has` compare JSON's values). */
function oneOfSource(values: unknown[], x: string, env: unknown[]): string {
  if (values.length === 0) return 'false';
  if (values.length <= 16 && values.every(isWritable))
    return values.map((value) => `${x} === ${JSON.stringify(value)}`).join(' || ');
  return `${ref(env, new Set(values))}.has(${x})`;
}

function arraySource(def: Def, d: number, src: Source): string | null {
  const x = `x${d}`;
  const y = `x${d + 1}`;
  const item = statementsOf(def.element!, d + 1, src);
  return (
    item &&
    `if (!Array.isArray(${x})) return false;
for (let i${d} = 0; i${d} < ${x}.length; i${d}++) {
${y} = ${x}[i${d}];
${item}
}`
  );
}

function recordSource(def: Def, d: number, src: Source): string | null {
  const key = defOf(def.keyType!);
  if (key.type !== 'string' || (key.checks && key.checks.length > 0)) return null;
  const x = `x${d}`;
  const y = `x${d + 1}`;
  const value = statementsOf(def.valueType!, d + 1, src);
  return (
    value &&
    `if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x}) || Object.getPrototypeOf(${x}) !== Object.prototype) return false;
for (const k${d} in ${x}) {
if (k${d} === "__proto__") return false;
${y} = ${x}[k${d}];
${value}
}`
  );
}

function objectSource(def: Def, d: number, src: Source): string | null {
  if (!def.catchall || defOf(def.catchall).type !== 'unknown') return null;
  const x = `x${d}`;
  const lines = [`if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})) return false;`];
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    const line = fieldSource(JSON.stringify(key), child, d, src);
    if (line === null) return null;
    lines.push(line);
  }
  return lines.join('\n');
}

/** The statements checking one key (`k`, quoted) of `x{d}`, as `compileField` checks it. */
function fieldSource(k: string, schema: z.ZodType, d: number, src: Source): string | null {
  const x = `x${d}`;
  const y = `x${d + 1}`;
  const def = defOf(schema);
  if (def.type === 'optional') {
    const check = statementsOf(def.innerType!, d + 1, src);
    return check && `${y} = ${x}[${k}];\nif (${y} !== undefined) {\n${check}\n}`;
  }
  if (def.type === 'default') {
    const check = statementsOf(def.innerType!, d + 1, src);
    // zod's `defaultValue` is a getter that hands out a fresh copy each time.
    return (
      check &&
      `${y} = ${x}[${k}];\nif (${y} === undefined) ${x}[${k}] = ${ref(src.env, def)}.defaultValue;\nelse {\n${check}\n}`
    );
  }
  const check = statementsOf(schema, d + 1, src);
  return check && `${y} = ${x}[${k}];\nif (${y} === undefined) return false;\n${check}`;
}
