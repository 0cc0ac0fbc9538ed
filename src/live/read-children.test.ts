import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client.js';
import type { ChildRead } from '../kinds/types.js';
import { inArray, readChildren } from './read-children.js';

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

describe('readChildren: the reads wanted below an item', () => {
  type Item = { name: string; answers: string[] };
  /** An API whose lists answer with their read's name, and the reads it was asked for. */
  const apiOf = (asked: string[]) =>
    ({
      capabilities: { flavor: 'seed' },
      list: (list: { name: string }) => {
        asked.push(list.name);
        return Promise.resolve(list.name);
      },
    }) as unknown as ApiClient;
  const read = (name: string, wanted = true, absentIn?: ['seed']): ChildRead<unknown, unknown> =>
    ({
      ...(absentIn ? { absentIn } : {}),
      wanted: () => wanted,
      list: () => ({ name }),
      attach: (item: Item, answer: string) => ({ ...item, answers: [...item.answers, answer] }),
    }) as unknown as ChildRead<unknown, unknown>;
  const t = <T>(p: Promise<T>) => p;
  const item: Item = { name: 'i', answers: [] };

  it('reads and attaches those wanted, in order, leaving out the unwanted and those the API does not have', async () => {
    const asked: string[] = [];
    const reads = [read('a'), read('b', false), read('c'), read('d', true, ['seed']), read('e')];
    const full = await readChildren(apiOf(asked), 'org', item, reads, { wants: {} }, t);
    expect([asked, (full as Item).answers]).toEqual([
      ['a', 'c', 'e'],
      ['a', 'c', 'e'],
    ]);
    // Export wants everything the API has.
    const all: string[] = [];
    expect(((await readChildren(apiOf(all), 'org', item, reads, undefined, t)) as Item).answers).toEqual([
      'a',
      'b',
      'c',
      'e',
    ]);
  });

  it('attaches the one read of an item, and none of an item that wants none', async () => {
    const asked: string[] = [];
    const one = await readChildren(apiOf(asked), 'org', item, [read('members')], { wants: {} }, t);
    expect((one as Item).answers).toEqual(['members']);
    expect(await readChildren(apiOf(asked), 'org', item, [read('x', false)], { wants: {} }, t)).toBe(item);
    expect(asked).toEqual(['members']);
  });
});
