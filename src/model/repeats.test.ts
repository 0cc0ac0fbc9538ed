import { describe, expect, it } from 'vitest';
import { repeatsIn, reportRepeats, Seen } from './repeats.js';

const pathOf = (e: { path?: string }) => e.path;
const entries = (...paths: (string | undefined)[]) =>
  paths.map((path) => (path === undefined ? {} : { path }));
/** The same list padded past the short-list bound with distinct keys, so the map's branch runs. */
const long = (...paths: (string | undefined)[]) => [
  ...entries(...paths),
  ...entries(...Array.from({ length: 20 }, (_, i) => `pad-${i}`)),
];

describe('repeatsIn', () => {
  const cases: [string, (string | undefined)[], [number, number][] | undefined][] = [
    ['no entries', [], undefined],
    ['distinct keys', ['a', 'b', 'c'], undefined],
    ['entries without a key never repeat', [undefined, undefined, 'a'], undefined],
    ['one repeat', ['a', 'b', 'a'], [[0, 2]]],
    [
      'a third time points at the first',
      ['a', 'a', 'a'],
      [
        [0, 1],
        [0, 2],
      ],
    ],
    [
      'interleaved repeats, in list order',
      ['a', 'b', 'a', 'b'],
      [
        [0, 2],
        [1, 3],
      ],
    ],
    ['case matters', ['A', 'a'], undefined],
  ];
  it.each(cases)('%s (short and long lists answer alike)', (_, paths, expected) => {
    expect(repeatsIn(entries(...paths), pathOf)).toEqual(expected);
    expect(repeatsIn(long(...paths), pathOf)).toEqual(expected);
  });
});

describe('reportRepeats', () => {
  it("hands a repeated key's first place once, then each repetition, in list order", () => {
    const keys = ['a', 'b', 'a', 'b', 'a'];
    const calls: [string, (string | number)[]][] = [];
    reportRepeats(
      (key, place) => calls.push([key, place]),
      repeatsIn(keys, (k) => k)!,
      (i) => keys[i]!,
      (i) => ['list', i],
    );
    expect(calls).toEqual([
      ['a', ['list', 0]],
      ['a', ['list', 2]],
      ['b', ['list', 1]],
      ['b', ['list', 3]],
      ['a', ['list', 4]],
    ]);
  });
});

describe('Seen', () => {
  it('counts an identity new, then repeated once, then more', () => {
    const seen = new Seen();
    expect(['x', 'y', 'x', 'x', 'y'].map((id) => seen.count(id))).toEqual([0, 0, 1, 2, 1]);
  });
});
