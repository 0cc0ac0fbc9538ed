import { describe, expect, it } from 'vitest';
import { jsonBytes } from './json-bytes.js';

const same = (value: unknown) =>
  expect(jsonBytes(value).equals(Buffer.from(JSON.stringify(value), 'utf8'))).toBe(true);

describe('jsonBytes (an answer as bytes, without one string of the whole answer)', () => {
  it('gives the bytes of JSON.stringify for list answers', () => {
    const space = (i: number) => ({ id: `space_${i}`, emoji: '📄', title: `Spåce ${i} "q" \\ \n`, n: -0 });
    same({ count: 3, items: [space(1), space(2), space(3)], next: { page: 'bzox' } });
    same({ items: [], count: 0 });
    same({ items: [[1, [2]], 'x', null, 1.5e300, NaN, true] });
    same([space(1), { nested: [space(2)] }]);
    same([]);
    same({});
  });

  it('leaves out what JSON.stringify leaves out and writes null where it does', () => {
    same({ a: undefined, items: [undefined, () => 1, Symbol('s'), 1], b: () => 2, c: 1 });
    same({ a: undefined });
    same({ items: new Array(3) });
    same(Object.assign([1, 2], { extra: 'ignored' }));
    same({ [Symbol('k')]: 1, items: [1] });
  });

  it('keeps lone surrogates escaped and pairs whole, as JSON.stringify does', () => {
    same({ items: ['\ud800', 'a\udfffb', '😀', '\u2028\u2029', '\u0000\u001f\u007f\u0080'] });
  });

  it('defers to JSON.stringify for anything but plain objects and arrays', () => {
    same({ items: [new Date(0)], at: new Date(1) });
    same({ toJSON: () => ({ replaced: [1, 2] }), items: [3] });
    same(new Map([[1, 2]]));
    same(Object.assign(Object.create(null) as object, { items: [1], x: 'y' }));
    same('just a string');
    same(42);
    same(null);
  });
});
