import { describe, expect, it } from 'vitest';
import { findKeyed, Memo } from './memo.js';

describe('Memo (indexes of the emulator state kept between writes)', () => {
  it('builds a value once and keeps it until a write', () => {
    const memo = new Memo();
    const owner = {};
    let builds = 0;
    const get = () => memo.of(owner, 'n', () => (builds += 1));
    expect([get(), get()]).toEqual([1, 1]);
    memo.write(() => undefined);
    expect(get()).toBe(2);
  });

  it('remembers nothing during a write (a handler may change what it just looked up)', () => {
    const memo = new Memo();
    const items = [{ id: 'a' }];
    memo.write(() => {
      expect(memo.active).toBe(false);
      expect(findKeyed(memo, items, 'id', (x) => x.id, 'a')).toBe(items[0]);
      items.push({ id: 'b' });
      expect(findKeyed(memo, items, 'id', (x) => x.id, 'b')).toBe(items[1]);
    });
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'b')).toBe(items[1]);
  });

  it('forgets after a write that throws', () => {
    const memo = new Memo();
    const items = [{ id: 'a' }];
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'z')).toBeUndefined();
    expect(() =>
      memo.write(() => {
        items.push({ id: 'z' });
        throw new Error('half done');
      }),
    ).toThrow('half done');
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'z')).toBe(items[1]);
  });

  it('keeps nothing once the state is handed out, until a fresh one replaces it', () => {
    const memo = new Memo();
    const items = [{ id: 'a' }];
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'a')).toBe(items[0]);
    memo.handedOut(true);
    items[0] = { id: 'b' }; // changed in place, behind the emulator's back
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'a')).toBeUndefined();
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'b')).toBe(items[0]);
    memo.handedOut(false);
    expect(memo.active).toBe(true);
  });

  it('finds the first item with a key, as find would', () => {
    const memo = new Memo();
    const items = [
      { id: 'a', n: 1 },
      { id: 'a', n: 2 },
    ];
    expect(findKeyed(memo, items, 'id', (x) => x.id, 'a')?.n).toBe(1);
    expect(findKeyed(undefined, items, 'id', (x) => x.id, 'a')?.n).toBe(1);
  });
});
