import { describe, expect, it } from 'vitest';
import { withField } from './with-field.js';

/** Keys and values in order, as JSON shows them. */
const entries = (o: object) => Object.entries(o);

describe('withField', () => {
  const cases: [string, Record<string, unknown>, string, unknown][] = [
    ['a key added', { id: 's1', title: 'T', spaces: [1] }, 'sections', [{ id: 'x' }]],
    ['a key replaced in its place', { id: 's1', sections: [], title: 'T' }, 'sections', [2]],
    ['an undefined value', { id: 's1', b: undefined }, 'c', undefined],
    ['an empty object', {}, 'shareLinks', []],
    ['a key with odd characters', { 'a b': 1, 2: 'two' }, 'x-y', null],
  ];
  it.each(cases)('%s: the keys and values of the spread, in its order', (_, obj, key, value) => {
    const before = entries(obj);
    const out = withField(obj, key, value);
    expect(entries(out)).toEqual(entries({ ...obj, [key]: value }));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).not.toBe(obj);
    expect(entries(obj)).toEqual(before);
  });
});
