import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client.js';
import type { ChildRead } from '../kinds/types.js';
import { inArray, wantedOf } from './read-children.js';

/** Settles `order` with the names of the callbacks in the order they ran, once the microtasks are done. */
async function ranIn(
  register: (x: Promise<string>, order: string[]) => void,
  fails = false,
): Promise<string[]> {
  const order: string[] = [];
  let settle!: (value: string) => void;
  let fail!: (error: Error) => void;
  const x = new Promise<string>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  register(x, order);
  if (fails) fail(new Error('read failed'));
  else settle('answer');
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  return order;
}

describe('an item with one read below it', () => {
  // Callbacks at the same depth run in the order they were queued; one a turn later would run
  // after the other whichever was queued first.
  const all = (x: Promise<string>, order: string[]) =>
    void Promise.all([x]).then(
      (answers) => order.push(`all ${answers.join()}`),
      () => order.push('all failed'),
    );
  const one = (x: Promise<string>, order: string[]) =>
    void x.then(inArray).then(
      (answers) => order.push(`one ${answers.join()}`),
      () => order.push('one failed'),
    );

  it('hands its answer on as Promise.all of it does, in the same turn of the microtasks', async () => {
    expect(await ranIn((x, order) => (all(x, order), one(x, order)))).toEqual(['all answer', 'one answer']);
    expect(await ranIn((x, order) => (one(x, order), all(x, order)))).toEqual(['one answer', 'all answer']);
  });

  it('hands its failure on as Promise.all of it does, in the same turn', async () => {
    expect(await ranIn((x, order) => (all(x, order), one(x, order)), true)).toEqual([
      'all failed',
      'one failed',
    ]);
    expect(await ranIn((x, order) => (one(x, order), all(x, order)), true)).toEqual([
      'one failed',
      'all failed',
    ]);
  });
});

describe('wantedOf', () => {
  const api = { capabilities: { flavor: 'seed' } } as unknown as ApiClient;
  const read = (name: string, wanted = true, absentIn?: ['seed']): ChildRead<unknown, unknown> =>
    ({
      name,
      ...(absentIn ? { absentIn } : {}),
      wanted: () => wanted,
      attach: (item: unknown) => item,
      list: () => ({}),
    }) as unknown as ChildRead<unknown, unknown>;
  const names = (reads: readonly ChildRead<unknown, unknown>[]) =>
    reads.map((r) => (r as unknown as { name: string }).name);

  it('is the reads themselves when every one is wanted (no array made an item)', () => {
    const reads = [read('a'), read('b')];
    expect(wantedOf(api, {}, reads, { wants: {} })).toBe(reads);
    expect(wantedOf(api, {}, reads, undefined)).toBe(reads);
  });

  it('leaves out the unwanted and those the API does not have, keeping the order', () => {
    const reads = [read('a'), read('b', false), read('c'), read('d', true, ['seed']), read('e')];
    expect(names(wantedOf(api, {}, reads, { wants: {} }))).toEqual(['a', 'c', 'e']);
    // Export wants everything the API has.
    expect(names(wantedOf(api, {}, reads, undefined))).toEqual(['a', 'b', 'c', 'e']);
    expect(names(wantedOf(api, {}, [read('x', false)], { wants: {} }))).toEqual([]);
  });
});
