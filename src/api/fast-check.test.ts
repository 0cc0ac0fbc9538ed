import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { client, withEmulator } from '../../test/helpers/emulator.js';
import { richSeed } from '../../test/helpers/rich-seed.js';
import { readScoped } from '../live/read.js';
import { everything } from '../live/scope.js';
import { checkerOf, closureCheckerOf } from './fast-check.js';
import { observeAnswerSchemas, parseAnswer } from './parse.js';
import { Page } from './schema.js';
import { z as zod } from 'zod';

/** The schemas answers are checked with, and a route each was used on. */
const seen = new Map<z.ZodType, string>();

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  valueType?: z.ZodType;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every schema answers were checked with in a full (export) read of a rich organization, both flavors. */
async function answerSchemas(): Promise<[string, z.ZodType][]> {
  const out = new Map<z.ZodType, string>();
  observeAnswerSchemas((schema, route) => seen.set(schema, route));
  try {
    for (const flavor of ['seed', 'current'] as const) {
      const emu = await withEmulator({ seed: richSeed(), flavor });
      const api = client(emu, { flavor });
      try {
        await readScoped(api, 'org_t', everything(['space_1', 'space_2']));
      } finally {
        await api.close();
        await emu.close();
      }
    }
  } finally {
    observeAnswerSchemas(undefined);
  }
  for (const [schema, route] of seen) out.set(schema, route);
  return [...out].map(([schema, route]) => [route, schema]);
}

/** A random value shaped like the schema, with mistakes now and then (wrong types, missing keys). */
function sample(schema: z.ZodType, rnd: () => number, depth = 0): unknown {
  const def = defOf(schema);
  const slip = rnd() < 0.03;
  if (slip) return [42, 'x', null, true, {}, []][Math.floor(rnd() * 6)];
  switch (def.type) {
    case 'string':
      return `s${Math.floor(rnd() * 100)}`;
    case 'number':
      return Math.floor(rnd() * 1000);
    case 'boolean':
      return rnd() < 0.5;
    case 'null':
      return null;
    case 'literal':
      return def.values![0];
    case 'enum': {
      const values = Object.values(def.entries!);
      return values[Math.floor(rnd() * values.length)];
    }
    case 'optional':
    case 'default':
      return rnd() < 0.3 ? undefined : sample(def.innerType!, rnd, depth);
    case 'nullable':
      return rnd() < 0.3 ? null : sample(def.innerType!, rnd, depth);
    case 'array':
      return depth > 3
        ? []
        : Array.from({ length: Math.floor(rnd() * 3) }, () => sample(def.element!, rnd, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = { extra: 'kept' };
      for (const [k, v] of Object.entries(def.shape ?? {})) {
        const value = rnd() < 0.02 ? undefined : sample(v, rnd, depth + 1);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      for (let n = Math.floor(rnd() * 3); n > 0; n -= 1)
        out[`k${n}`] = sample(def.valueType!, rnd, depth + 1);
      return out;
    }
    default:
      return rnd() < 0.5 ? 'anything' : { any: 1 };
  }
}

describe('fast answer check', () => {
  it('agrees with zod on every schema answers are read with, valid and broken answers alike', async () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const schemas = await answerSchemas();
    expect(schemas.length).toBeGreaterThan(15);
    let covered = 0;
    let accepted = 0;
    for (const [name, schema] of schemas) {
      if (checkerOf(schema)) covered += 1;
      for (let i = 0; i < 150; i += 1) {
        const body = sample(schema, rnd);
        const copy = structuredClone(body);
        const zod = schema.safeParse(copy);
        const closureBody = structuredClone(body);
        const fast = checkerOf(schema)?.(body) ?? false;
        // The generated checker and the closures accept the same answers and fill the same defaults.
        expect(
          closureCheckerOf(schema)?.(closureBody) ?? false,
          `${name}: generated and closures differ`,
        ).toBe(fast);
        expect(closureBody).toEqual(body);
        if (fast) {
          accepted += 1;
          expect(zod.success, `${name}: the fast check accepted what zod refuses`).toBe(true);
          expect(body, `${name}: not what zod returns`).toEqual(zod.data);
        }
      }
    }
    // Most schemas are covered (the hot list pages among them), and many answers take the fast path.
    expect(covered).toBeGreaterThan(schemas.length / 2);
    expect(accepted).toBeGreaterThan(schemas.length * 10);
    for (const route of ['/orgs/{org}/sites/{site}/sections', '/orgs/{org}/teams/{team}/members'])
      expect(
        schemas.some(([r, schema]) => r === route && checkerOf(schema)),
        route,
      ).toBe(true);
  });

  it('keeps the typed field error of a broken answer', () => {
    const item = zod.looseObject({
      id: zod.string(),
      siteSpaces: zod.array(zod.looseObject({ path: zod.string() })).default([]),
    });
    const body = { items: [{ id: 'a' }, { id: 'b', siteSpaces: [{ path: 3 }] }] };
    expect(() => parseAnswer(Page(item), body, 'GET', '/orgs/{org}/sites/{site}/sections')).toThrow(
      /unexpected answer at items\.1\.siteSpaces\.0\.path/,
    );
  });

  it('fills defaults as zod would and returns the answer itself', () => {
    const item = zod.looseObject({ id: zod.string(), tags: zod.array(zod.string()).default([]) });
    const body = { items: [{ id: 'a', other: { deep: 1 } }] };
    const parsed = parseAnswer(Page(item), body, 'GET', '/x');
    expect(parsed).toBe(body);
    expect(parsed.items[0]).toEqual({ id: 'a', other: { deep: 1 }, tags: [] });
  });

  it('generates checks of odd keys and literals as the closures check them', () => {
    const many = Array.from({ length: 20 }, (_, i) => `v${i}`);
    const schema = zod.looseObject({
      'a"b': zod.string(),
      'line\nbreak\u2028': zod.number().optional(),
      '}; throw 1; {': zod.boolean().nullable().default(false),
      constructor: zod.literal(['x"y', 3, true, null]).optional(),
      big: zod.literal(10n).optional(),
      undef: zod.literal([undefined, 'u']).optional(),
      many: zod.enum(many as [string, ...string[]]).optional(),
      few: zod.enum(['a', 'b']).optional(),
      tags: zod
        .record(zod.string(), zod.array(zod.nullable(zod.looseObject({ id: zod.string() }))))
        .optional(),
    });
    const bodies: unknown[] = [
      { 'a"b': 's' },
      { 'a"b': 's', 'line\nbreak\u2028': 1, '}; throw 1; {': null, constructor: 'x"y' },
      { 'a"b': 's', constructor: 3, few: 'b', many: 'v19' },
      { 'a"b': 's', constructor: null, undef: 'u', tags: { a: [null, { id: 'i' }] } },
      { 'a"b': 's', constructor: 4 },
      { 'a"b': 's', big: 10n },
      { 'a"b': 's', many: 'v20' },
      { 'a"b': 's', few: 'c' },
      { 'a"b': 's', 'line\nbreak\u2028': Infinity },
      { 'a"b': 's', tags: { a: [{ id: 1 }] } },
      { 'a"b': 's', tags: Object.create({ a: 1 }) as unknown },
      { 'a"b': 2 },
      [],
      null,
    ];
    expect(checkerOf(schema)).not.toBeNull();
    const accepted = bodies.map((body) => {
      const copy = structuredClone(body);
      const closureCopy = structuredClone(body);
      const fast = checkerOf(schema)!(copy);
      expect(closureCheckerOf(schema)!(closureCopy)).toBe(fast);
      expect(closureCopy).toEqual(copy);
      if (fast) expect(copy).toEqual(schema.parse(structuredClone(body)));
      return fast;
    });
    // The first lacks `constructor`, so both read Object.prototype's (a function) and leave it to zod.
    expect(accepted).toEqual([false, true, true, true, ...Array<boolean>(10).fill(false)]);
  });

  it('checks a schema nested deeper than one function inlines, as the closures do', () => {
    let schema: z.ZodType = zod.looseObject({ leaf: zod.string(), n: zod.number().default(0) });
    for (let i = 0; i < 12; i += 1)
      schema = zod.looseObject({ [`k${i}`]: zod.array(schema).nullable(), at: zod.number() });
    let body: unknown = { leaf: 'x' };
    for (let i = 0; i < 12; i += 1) body = { [`k${i}`]: [body, null].slice(0, 1), at: i };
    const bad = JSON.parse(JSON.stringify(body).replace('"x"', '3')) as unknown;
    for (const [value, ok] of [
      [body, true],
      [bad, false],
    ] as const) {
      const copy = structuredClone(value);
      const closureCopy = structuredClone(value);
      expect(checkerOf(schema)!(copy)).toBe(ok);
      expect(closureCheckerOf(schema)!(closureCopy)).toBe(ok);
      expect(copy).toEqual(closureCopy);
      // The default twelve levels down is filled in place.
      if (ok) expect(JSON.stringify(copy)).toContain('"n":0');
    }
  });

  it('leaves a recursive schema to zod, as the closures do', () => {
    const Node = zod.looseObject({
      id: zod.string(),
      get children() {
        return zod.array(Node).optional();
      },
    });
    expect(checkerOf(Node)).toBeNull();
    expect(closureCheckerOf(Node)).toBeNull();
  });

  it('leaves schemas it does not cover to zod (checks, unions, objects that strip keys)', () => {
    expect(checkerOf(zod.looseObject({ id: zod.string().min(1) }))).toBeNull();
    expect(checkerOf(zod.looseObject({ v: zod.union([zod.string(), zod.number()]) }))).toBeNull();
    expect(checkerOf(zod.object({ id: zod.string() }))).toBeNull();
  });
});
