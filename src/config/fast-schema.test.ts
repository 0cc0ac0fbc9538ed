import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { z } from 'zod';
import { mutate, rng } from '../../test/helpers/mutate.js';
import { randomConfig } from '../../test/helpers/random-state.js';
import { fastSafeParse } from './fast-schema.js';
import { ConfigFileSchema } from './schema.js';
import { parseYamlFile } from './yaml-file.js';
import { repositoryYamlFiles } from '../../test/helpers/repository-yaml.js';

/**
 * The fast path either declines (undefined) or answers exactly what zod's safeParse gives: the
 * same data, keys in the same order; never an answer where zod refuses. Returns whether it answered.
 */
function expectAgreement(value: unknown, label: string, schema: z.ZodType = ConfigFileSchema): boolean {
  const fast = fastSafeParse(schema, value);
  if (fast === undefined) return false;
  const zod = schema.safeParse(value);
  expect(zod.success, `${label}: zod refuses what the fast path accepted`).toBe(true);
  expect(JSON.stringify(fast), label).toBe(JSON.stringify(zod.data));
  expect(fast, label).toEqual(zod.data);
  return true;
}

/** Each list entry of a config against its list's element schema (most entries avoid what it declines). */
function entriesAgree(config: unknown, label: string): number {
  if (typeof config !== 'object' || config === null) return 0;
  let answered = 0;
  const shape = ConfigFileSchema.shape as Record<string, z.ZodType>;
  for (const [key, list] of Object.entries(config)) {
    const schema = shape[key];
    if (!schema || !Array.isArray(list)) continue;
    const element = (schema as unknown as { unwrap(): z.ZodArray<z.ZodType> }).unwrap().element;
    for (const [i, entry] of list.entries())
      if (expectAgreement(entry, `${label} ${key}[${i}]`, element)) answered += 1;
  }
  return answered;
}

const valueOf = (text: string): unknown => {
  const yaml = parseYamlFile('t.yaml', Buffer.from(text));
  return Array.isArray(yaml) ? undefined : yaml.value;
};

describe('fastSafeParse against zod (issue 33)', () => {
  it('answers as zod does for every config of the repository, good and bad', () => {
    const files = repositoryYamlFiles();
    let answered = 0;
    for (const file of files) {
      const value = valueOf(readFileSync(file, 'utf8'));
      if (value !== undefined && expectAgreement(value, file)) answered += 1;
    }
    expect(answered).toBeGreaterThan(10);
  });

  it('answers as zod does on generated configs of every kind, and on their mutations', () => {
    const random = rng(20261126);
    let answered = 0;
    let entries = 0;
    let mutated = 0;
    for (let i = 0; i < 300; i += 1) {
      const config = randomConfig(random, i % 2 === 0 ? 'seed' : 'current');
      if (expectAgreement(config, `random config ${i}`)) answered += 1;
      entries += entriesAgree(config, `random config ${i}`);
      const text = mutate(stringify(config), random);
      const value = valueOf(text);
      if (value === undefined) continue;
      if (expectAgreement(value, `mutated config ${i}:\n${text}`)) answered += 1;
      mutated += entriesAgree(value, `mutated config ${i}:\n${text}`);
    }
    expect(answered).toBeGreaterThan(10);
    expect(entries).toBeGreaterThan(500);
    expect(mutated).toBeGreaterThan(100);
  });

  it('declines what zod refuses: an unknown key, a wrong type, a failed check, a missing key', () => {
    const site = { title: 'Docs', sections: [{ path: 'guides', spaces: [{ space: 'space_1' }] }] };
    const ok = { organization: 'org_t', sites: [site] };
    expect(fastSafeParse(ConfigFileSchema, ok)).toEqual(ConfigFileSchema.parse(ok));
    for (const bad of [
      { ...ok, extra: 1 },
      { organization: 'org_t', sites: [{ ...site, title: 7 }] },
      { organization: '', sites: [site] },
      { organization: 'org_t', sites: [{ ...site, sections: [{ path: 'guides' }] }] },
      { organization: 'org_t', sites: [{ title: 'D' }] },
    ]) {
      expect(ConfigFileSchema.safeParse(bad).success).toBe(false);
      expect(fastSafeParse(ConfigFileSchema, bad)).toBeUndefined();
    }
  });
});

describe("fastSafeParse answers with the input's own objects where zod's copy would equal them", () => {
  // A stripping object (zod drops unknown keys) whose list items are trimmed (a check that changes the value).
  const Entry = z.object({
    a: z.string(),
    b: z.string().optional(),
    c: z.array(z.string().trim()).optional(),
  });

  it('the same keys in the schema order, the same values: the input itself, down the tree', () => {
    const input = { a: 'x', c: ['p', 'q'] };
    expect(fastSafeParse(Entry, input)).toBe(input);
    const site = { title: 'Docs', sections: [{ path: 'guides', spaces: [{ space: 'space_1' }] }] };
    const file = { organization: 'org_t', sites: [site] };
    const answer = fastSafeParse(ConfigFileSchema, file);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(ConfigFileSchema.parse(file)));
    expect(answer?.sites?.[0]).toBe(site);
  });

  it("another order, a key zod strips, a value a check changes: zod's copy, the input untouched", () => {
    const inputs = [
      { c: ['p'], a: 'x' },
      { a: 'x', extra: 1 },
      { a: 'x', b: 'y', c: ['p', ' q '] },
      { b: 'y', a: ' x' },
    ];
    const before = JSON.stringify(inputs);
    for (const input of inputs) {
      const fast = fastSafeParse(Entry, input);
      expect(fast).not.toBe(input);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(Entry.parse(input)));
    }
    expect(JSON.stringify(inputs)).toBe(before);
    const trimmed = fastSafeParse(Entry, inputs[2]);
    expect(trimmed?.c).toEqual(['p', 'q']);
    expect(trimmed?.c).not.toBe(inputs[2]!.c);
  });

  it("answers as zod does at strings' length bounds, where zod counts code points (surrogate pairs)", () => {
    // Strings within the bounds by UTF-16 units and by code points, across them, and in between
    // (a pair of surrogates is one code point, two units; a lone surrogate one of each).
    const pair = '\u{1F600}';
    const words = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', pair, `a${pair}`, `${pair}${pair}`, `ab${pair}`];
    const lone = ['\ud800', 'a\udc00', '\udc00\ud800', `${pair}\ud800`, 'x\ud83d'];
    const schemas: [string, z.ZodType][] = [
      ['min 1', z.string().min(1)],
      ['min 2', z.string().min(2)],
      ['max 2', z.string().max(2)],
      ['min 2 max 3', z.string().min(2).max(3)],
      ['max 3 min 2', z.string().max(3).min(2)],
      ['length 2', z.string().length(2)],
      ['min 1 trimmed', z.string().trim().min(1)],
      ['min 1 custom when', z.string().min(1, { when: () => false } as never)],
      ['array max 2', z.array(z.string()).max(2)],
    ];
    let answered = 0;
    for (const [name, schema] of schemas)
      for (const word of [...words, ...lone, ` ${pair} `, ['a', 'b'], ['a', 'b', 'c']])
        if (expectAgreement(word, `${name} ${JSON.stringify(word)}`, schema)) answered += 1;
    expect(answered).toBeGreaterThan(40);
    // Those zod refuses (fewer code points than the floor, more than the ceiling) are declined.
    expect(fastSafeParse(z.string().min(2), pair)).toBeUndefined();
    expect(fastSafeParse(z.string().max(1), 'ab')).toBeUndefined();
    expect(fastSafeParse(z.string().max(2), `${pair}${pair}`)).toBe(`${pair}${pair}`);
  });
});

describe('objects whose keys are out of the schema order', () => {
  /** `depth` levels of `{ b: <next level>, a: 'x' }`: each level's keys in the reverse of the schema's order. */
  function nested(depth: number) {
    type Level = z.ZodType;
    let schema: Level = z.strictObject({ a: z.string().optional() });
    let value: Record<string, unknown> = { a: 'x' };
    for (let d = 0; d < depth; d += 1) {
      schema = z.strictObject({ a: z.string().optional(), b: schema.optional() });
      value = { b: value, a: 'x' };
    }
    return { schema, value };
  }

  /** The values read from the innermost object while `fastSafeParse` runs (a read is a parse of it or of its keys). */
  function readsOfInnermost(depth: number): { reads: number; answer: unknown } {
    const { schema, value } = nested(depth);
    let reads = 0;
    let level = value;
    for (let d = 0; d < depth; d += 1) {
      const next = level['b'] as Record<string, unknown>;
      if (d === depth - 1)
        level['b'] = new Proxy(next, {
          get: (target, key, receiver) => ((reads += 1), Reflect.get(target, key, receiver) as unknown),
        });
      level = next;
    }
    const answer = fastSafeParse(schema, value);
    return { reads, answer };
  }

  it('are parsed once per level, not again after the order is found wrong (no doubling with depth)', () => {
    const shallow = readsOfInnermost(2);
    const deep = readsOfInnermost(12);
    // A parse that the general path repeats after an abandoned in-order walk doubles the work at
    // each level: 2^12 reads of the innermost object. Once per level, the count does not grow.
    expect(deep.answer).toEqual(nested(12).schema.parse(nested(12).value));
    expect(shallow.reads).toBeGreaterThan(0);
    expect(deep.reads).toBeLessThanOrEqual(shallow.reads * 2);
  });
});
