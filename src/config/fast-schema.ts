import { z } from 'zod';

/**
 * A faster path for zod's `safeParse` of a config file that is valid, for the part of zod that
 * configs use: objects (strict or stripping), arrays, strings, numbers, booleans, enums, literals,
 * null, optional, nullable and unions, each with the checks zod itself declared on it (length
 * bounds, patterns, refinements: run by calling zod's own check objects). Anything else (a
 * transform, a record, a default, a coercion…) makes it answer "unsure", and so does any value
 * zod would refuse: the caller then runs zod, which also reports the errors.
 *
 * When it answers, the answer is what zod's `safeParse(...).data` is: the same values, objects
 * and arrays with keys in the schema's order, absent optional keys left out. Where zod's copy of
 * an object or array would hold the same keys in the same order and the same values, the answer
 * is the input's own (a config file's tree, which the loader then drops): one copy of the config
 * less to allocate and to carry through the collections while the files load. zod builds
 * a payload and an issues list per declared key of each object (present or not): a site space
 * entry of ten optional keys cost twenty objects; this costs one (issue 33, decision 42).
 * `fast-schema.test.ts` compares both on every config of the repository and on generated entries
 * of every kind, with zero differences allowed.
 */

/** Not answered here: zod decides (the value may be valid in a way this path does not model). */
const UNSURE: unique symbol = Symbol('unsure');
/** Refused by one of zod's own rules (type, key, check): zod would refuse it too. */
const FAIL: unique symbol = Symbol('fail');
type Answer = unknown;
type Parse = (value: unknown) => Answer;

type Inner = {
  def: Record<string, unknown> & {
    type: string;
    checks?: CheckInstance[];
    coerce?: boolean;
  };
  traits: Set<string>;
  optin?: string;
  optout?: string;
  values?: Set<unknown>;
};
type Schema = { _zod: Inner };
type CheckInstance = {
  _zod: {
    def: { check: string; when?: (payload: Payload) => boolean };
    check: (payload: Payload) => unknown;
    traits: Set<string>;
  };
};
type Payload = { value: unknown; issues: unknown[] };

const compiled = new WeakMap<object, Parse>();

/** zod's data for a valid config value, or `undefined`: run zod. */
export function fastSafeParse<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const answer = parserOf(schema as unknown as Schema)(value);
  return answer === UNSURE || answer === FAIL ? undefined : (answer as T);
}

function parserOf(schema: Schema): Parse {
  let parse = compiled.get(schema);
  if (!parse) {
    // Compiled lazily (a node is compiled when a value reaches it); a cycle meets this stub.
    compiled.set(schema, () => UNSURE);
    parse = withChecks(schema, typeParse(schema));
    compiled.set(schema, parse);
  }
  return parse;
}

/**
 * A child's parser, compiled when a value first reaches it (then kept: no lookup per value). A
 * parse runs only after its ancestors are compiled, so this never keeps a cycle's stub.
 */
function later(schema: Schema): () => Parse {
  let parse: Parse | undefined;
  return () => (parse ??= parserOf(schema));
}

/** The exact trait sets of the zod classes modelled here (a subclass with more behaviour is not). */
const plain = (schema: Schema, name: string): boolean => {
  const traits = schema._zod.traits;
  const core = `$Zod${name}`;
  const classic = `Zod${name}`;
  for (const t of traits)
    if (t !== core && t !== classic && t !== '$ZodType' && t !== 'ZodType' && t !== `_Zod${name}`)
      if (!(name === 'Object' && t === '$ZodObjectJIT')) return false;
  return traits.has(core);
};

function typeParse(schema: Schema): Parse {
  const inner = schema._zod;
  const def = inner.def;
  if (def.coerce) return () => UNSURE;
  switch (def.type) {
    case 'string':
      return plain(schema, 'String') ? (v) => (typeof v === 'string' ? v : FAIL) : () => UNSURE;
    case 'number':
      return plain(schema, 'Number')
        ? (v) => (typeof v === 'number' && Number.isFinite(v) ? v : FAIL)
        : () => UNSURE;
    case 'boolean':
      return plain(schema, 'Boolean') ? (v) => (typeof v === 'boolean' ? v : FAIL) : () => UNSURE;
    case 'null':
      return plain(schema, 'Null') ? (v) => (v === null ? v : FAIL) : () => UNSURE;
    case 'enum':
    case 'literal': {
      const values = inner.values;
      if (!values || !plain(schema, def.type === 'enum' ? 'Enum' : 'Literal')) return () => UNSURE;
      return (v) => (values.has(v) ? v : FAIL);
    }
    case 'optional':
      return optionalParse(schema);
    case 'nullable': {
      if (!plain(schema, 'Nullable')) return () => UNSURE;
      const inner = later(def['innerType'] as Schema);
      return (v) => (v === null ? v : inner()(v));
    }
    case 'array':
      return plain(schema, 'Array') ? arrayParse(def['element'] as Schema) : () => UNSURE;
    case 'object':
      return plain(schema, 'Object') ? objectParse(schema) : () => UNSURE;
    case 'union':
      return plain(schema, 'Union') ? unionParse(def['options'] as Schema[]) : () => UNSURE;
    default:
      return () => UNSURE;
  }
}

function optionalParse(schema: Schema): Parse {
  const innerType = schema._zod.def['innerType'] as Schema;
  if (!plain(schema, 'Optional') || innerType._zod.optin === 'defaulted') return () => UNSURE;
  const inner = later(innerType);
  return (v) => (v === undefined ? undefined : inner()(v));
}

function arrayParse(element: Schema): Parse {
  const inner = later(element);
  return (v) => {
    if (!Array.isArray(v)) return FAIL;
    const parse = inner();
    let out: unknown[] | undefined; // made at the first item whose answer is not the item itself
    for (let i = 0; i < v.length; i += 1) {
      const item = parse(v[i]);
      if (item === UNSURE || item === FAIL) return item;
      if (out === undefined && item !== v[i]) out = v.slice(0, i) as unknown[];
      if (out !== undefined) out.push(item);
    }
    return out ?? v;
  };
}

/** Keys that `key in input` would find on any object (zod tests presence so): not modelled. */
const inherited = (key: string) => key in Object.prototype;

function objectParse(schema: Schema): Parse {
  const def = schema._zod.def;
  const shape = def['shape'] as Record<string, Schema>;
  const catchall = def['catchall'] as Schema | undefined;
  const strict = catchall !== undefined && catchall._zod.def.type === 'never';
  if (catchall !== undefined && !strict) return () => UNSURE;
  const keys = Object.keys(shape);
  if (Object.getOwnPropertySymbols(shape).length > 0 || keys.some(inherited)) return () => UNSURE;
  const known = new Set(keys);
  // Per key: how zod treats absence (optional in and out: left out; else required).
  const fields = keys.map((key): Field | undefined => {
    const { optin, optout } = shape[key]!._zod;
    if (optin !== undefined && (optin !== 'optional' || optout !== 'optional')) return undefined;
    const inner = foldedOptional(shape[key]!);
    return {
      key,
      schema: inner ?? shape[key]!,
      folded: inner !== undefined,
      optional: optin !== undefined,
      parse: undefined,
    };
  });
  if (fields.some((f) => f === undefined)) return () => UNSURE;
  const all = fields as Field[];
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return FAIL;
    const input = v as Record<string, unknown>;
    // A config's object almost always: its keys declared, in the schema's order, none required
    // missing. Then its keys are all the fields to parse, in that order.
    if (declaredInOrder(input, all)) return parseInOrder(input, all);
    if (strict) for (const key in input) if (!known.has(key)) return FAIL;
    // zod's copy, made at the first key whose answer is not the input's own value.
    let out: Record<string, unknown> | undefined;
    let present = 0;
    for (const field of all) {
      if (!(field.key in input)) {
        if (field.optional) continue;
        return FAIL;
      }
      const before = input[field.key];
      const value = parseField(field, before);
      if (value === UNSURE || value === FAIL) return value;
      present += 1;
      if (out === undefined && value !== before) out = copyBefore(input, all, field);
      if (out !== undefined) out[field.key] = value;
    }
    if (out !== undefined) return out;
    return inSchemaOrder(input, all, present) ? input : copyBefore(input, all, undefined);
  };
}

/**
 * A declared key: `schema` is what its value is parsed with (an optional's inner type when
 * `folded`); `parse` its parser, made when a value first reaches it (a parse runs only after its
 * ancestors are compiled, so this never keeps a cycle's stub).
 */
type Field = { key: string; schema: Schema; folded: boolean; optional: boolean; parse: Parse | undefined };

/**
 * A present key's value parsed as zod does. A folded optional answers `undefined` for `undefined`
 * and its inner type's answer otherwise, as `optionalParse` does, without its two calls per value
 * (most of a config's keys are optional, issue 33).
 */
function parseField(field: Field, value: unknown): Answer {
  if (value === undefined && field.folded) return undefined;
  return (field.parse ??= parserOf(field.schema))(value);
}

/**
 * The inner type of an optional that adds nothing to it but `undefined`: what `parserOf` would
 * compile to `optionalParse` alone (a plain optional, no checks, no default inside), else undefined.
 */
function foldedOptional(schema: Schema): Schema | undefined {
  const inner = schema._zod;
  if (inner.def.type !== 'optional' || inner.def.coerce || (inner.def.checks ?? []).length > 0)
    return undefined;
  if (inner.traits.has('$ZodCheck') || !plain(schema, 'Optional')) return undefined;
  const innerType = inner.def['innerType'] as Schema;
  return innerType._zod.optin === 'defaulted' ? undefined : innerType;
}

/**
 * Whether `input`'s keys are all declared, in the schema's order, with every required one among
 * them. The input is a tree the fast YAML reader made (or a copy of one): its keys are its own
 * enumerable ones, so its keys are what `key in input` finds of the schema's.
 */
function declaredInOrder(input: Record<string, unknown>, fields: Field[]): boolean {
  let f = 0;
  for (const key in input) {
    for (; f < fields.length && fields[f]!.key !== key; f += 1) if (!fields[f]!.optional) return false;
    if (f === fields.length) return false;
    f += 1;
  }
  for (; f < fields.length; f += 1) if (!fields[f]!.optional) return false;
  return true;
}

/**
 * What the general path answers for an input `declaredInOrder` holds: each key parsed in turn
 * (the schema's order), zod's copy made at the first answer that is not the input's own value.
 * One walk of the input's keys, where the general path asks `in` of every declared key and walks
 * the keys twice more (issue 33).
 */
function parseInOrder(input: Record<string, unknown>, fields: Field[]): Answer {
  let out: Record<string, unknown> | undefined;
  let f = 0;
  for (const key in input) {
    while (fields[f]!.key !== key) f += 1;
    const field = fields[f]!;
    f += 1;
    const before = input[key];
    const value = parseField(field, before);
    if (value === UNSURE || value === FAIL) return value;
    if (out === undefined && value !== before) out = copyBefore(input, fields, field);
    if (out !== undefined) out[key] = value;
  }
  return out ?? input;
}

/** zod's copy of `input`'s keys that come before `stop` in the schema (all: undefined). */
function copyBefore(input: Record<string, unknown>, fields: Field[], stop: Field | undefined) {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field === stop) break;
    if (field.key in input) out[field.key] = input[field.key];
  }
  return out;
}

/** Whether `input` holds exactly its `present` schema keys, in the schema's order (zod's copy's). */
function inSchemaOrder(input: Record<string, unknown>, fields: Field[], present: number): boolean {
  let f = 0;
  let seen = 0;
  for (const key in input) {
    while (f < fields.length && fields[f]!.key !== key) {
      if (fields[f]!.key in input) return false; // a later key of the schema came first
      f += 1;
    }
    if (f === fields.length) return false; // a key the schema does not declare (stripped by zod)
    f += 1;
    seen += 1;
  }
  return seen === present;
}

function unionParse(options: Schema[]): Parse {
  const parsers = options.map(later);
  return (v) => {
    // zod takes the first option that has no issue; one this path cannot judge stops it.
    for (const parser of parsers) {
      const answer = parser()(v);
      if (answer === FAIL) continue;
      return answer;
    }
    return FAIL;
  };
}

/** The type's checks, run as zod runs them on a value that passed its type: each, in order. */
function withChecks(schema: Schema, parse: Parse): Parse {
  const checks = schema._zod.def.checks ?? [];
  if (schema._zod.traits.has('$ZodCheck')) return () => UNSURE;
  if (checks.length === 0) return parse;
  // One payload per schema, reused from value to value (a config checks some 270,000 values: an
  // object and an array each, issue 33). Taken while the checks run, so a check that parses with
  // this schema again gets a new one; never reused after an async check, which may still hold it.
  let spare: Payload | undefined = { value: undefined, issues: [] };
  const bounds = lengthBounds(checks);
  return (v) => {
    const value = parse(v);
    if (value === UNSURE || value === FAIL) return value;
    if (bounds !== undefined && typeof value === 'string' && surelyWithin(value, bounds)) return value;
    const payload: Payload = spare ?? { value, issues: [] };
    spare = undefined;
    payload.value = value;
    const answer = runChecks(checks, payload);
    if (answer === UNSURE) return UNSURE;
    payload.value = undefined;
    // Emptied only when a check reported: setting an array's length is a call into the runtime,
    // a fifth of this path's time when it ran for every value (issue 33).
    if (payload.issues.length !== 0) payload.issues.length = 0;
    spare = payload;
    return answer;
  };
}

/**
 * The checks when they are all zod's own bounds of a length (`min`/`max`, nearly every check of a
 * config: some 285,000 values of the request-heavy one), as one range, else undefined. A string
 * surely within it passes them (`surelyWithin`) without their two calls each (`when`, `check`) and
 * the payload's writes.
 */
function lengthBounds(checks: readonly CheckInstance[]): LengthBounds | undefined {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of checks) {
    const def = check._zod.def as CheckInstance['_zod']['def'] & { minimum?: unknown; maximum?: unknown };
    const traits = check._zod.traits;
    if (whenHasLength === undefined || def.when !== whenHasLength) return undefined;
    if (traits.size !== 2 || !traits.has('$ZodCheck')) return undefined;
    if (def.check === 'min_length' && traits.has('$ZodCheckMinLength') && typeof def.minimum === 'number')
      min = Math.max(min, def.minimum);
    else if (
      def.check === 'max_length' &&
      traits.has('$ZodCheckMaxLength') &&
      typeof def.maximum === 'number'
    )
      max = Math.min(max, def.maximum);
    else return undefined;
  }
  return { min, max };
}

type LengthBounds = { min: number; max: number };

/** zod's own `when` of a length's bound (a check that was given another is not one of these). */
const whenHasLength = (z.string().min(1)._zod.def.checks![0]!._zod.def as { when?: unknown }).when;

/**
 * Whether zod's length bounds pass `s` for sure. zod counts a string's code points where its UTF-16
 * units leave it in doubt: a pair of surrogates is one. So within `max` units is within `max`; for
 * `min`, twice `min` units or more is enough, and so is `min` or more without a surrogate (each
 * unit then a code point). Anything else: zod's checks decide.
 */
function surelyWithin(s: string, bounds: LengthBounds): boolean {
  const units = s.length;
  if (units > bounds.max || units < bounds.min) return false;
  if (units >= 2 * bounds.min) return true;
  for (let i = 0; i < units; i += 1) if ((s.charCodeAt(i) & 0xf800) === 0xd800) return false;
  return true;
}

/** The payload's value once `checks` pass, `FAIL` when one reports an issue, `UNSURE` for an async one. */
function runChecks(checks: NonNullable<Schema['_zod']['def']['checks']>, payload: Payload): unknown {
  // Indexed: `for…of` made an iterator per value until the function was optimized.
  for (let i = 0; i < checks.length; i += 1) {
    const check = checks[i]!;
    const when = check._zod.def.when;
    if (when && !when(payload)) continue;
    const result = check._zod.check(payload);
    if (result instanceof Promise) return UNSURE;
    if (payload.issues.length > 0) return FAIL;
  }
  return payload.value;
}
