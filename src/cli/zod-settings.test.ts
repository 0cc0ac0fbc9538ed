import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

describe("the CLI's zod settings", () => {
  const F = globalThis.Function;
  // The suite shares a worker between files (vitest.config.ts, isolate: false): zod's setting is
  // put back after this file, so that the files after it build their schemas as the GitHub
  // Action does (zod compiling its parsers), whatever the order.
  let before: boolean | undefined;
  beforeAll(async () => {
    before = z.config().jitless;
    await import('./zod-settings.js');
  });
  afterAll(() => {
    z.config({ jitless: before });
  });
  afterEach(() => {
    globalThis.Function = F;
  });

  it('are where zod reads them, jitless', () => {
    expect(z.config().jitless).toBe(true);
  });

  it('let an object schema parse without compiling a parser, with the same result and issues', () => {
    let compiled = 0;
    globalThis.Function = new Proxy(F, {
      construct: (target, args) => {
        compiled++;
        return Reflect.construct(target, args) as object;
      },
    });
    const schema = z.strictObject({ title: z.string().min(1), size: z.number().optional() });
    expect(schema.parse({ title: 'a', size: 2 })).toEqual({ title: 'a', size: 2 });
    const issues = schema.safeParse({ title: '', extra: 1 }).error?.issues.map((i) => [i.code, i.path]);
    expect(issues).toEqual([
      ['too_small', ['title']],
      ['unrecognized_keys', []],
    ]);
    expect(compiled).toBe(0);
  });
});
