import { describe, expect, it } from 'vitest';
import {
  changeFields,
  mergeSparse,
  nonDefault,
  sparseChanges,
  sparseLeaves,
  valueAtPath,
  withValueAt,
} from './sparse.js';

/** Sparse documents (decision 0037): only the keys the config gives are compared and written. */
const live = {
  title: 'Docs',
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' } },
  },
  favicon: { icon: { light: 'https://x/l.png', dark: 'https://x/d.png' } },
  header: { preset: 'default', links: [{ title: 'Home', links: [], to: null }] },
  trademark: { enabled: true },
};
const atomic = new Set(['favicon']);

describe('sparseLeaves', () => {
  it.each([
    ['a flat key', { title: 'A' }, [['title']]],
    [
      'a deep key',
      { styling: { primaryColor: { light: '#000000' } } },
      [['styling', 'primaryColor', 'light']],
    ],
    ['a list is one key', { header: { links: [] } }, [['header', 'links']]],
    ['null is one key', { header: { logo: null } }, [['header', 'logo']]],
    ['an empty object is one key', { favicon: {} }, [['favicon']]],
    ['an atomic path is one key', { favicon: { emoji: '1f600' } }, [['favicon']]],
    [
      'keys in the config’s order',
      { trademark: { enabled: false }, title: 'B' },
      [['trademark', 'enabled'], ['title']],
    ],
  ])('%s', (_, doc, paths) => {
    expect(sparseLeaves(doc, atomic).map((l) => l.path)).toEqual(paths);
  });
});

describe('sparseChanges', () => {
  it.each([
    ['same value: no change', { styling: { theme: 'clean' } }, []],
    [
      'one deep key differs: only it',
      { styling: { primaryColor: { light: '#0055FF', dark: '#346DDB' } } },
      [{ path: 'styling.primaryColor.light', before: '#346DDB', after: '#0055FF' }],
    ],
    [
      'a key the live document lacks: before is null',
      { footer: { copyright: '© Acme' } },
      [{ path: 'footer.copyright', before: null, after: '© Acme' }],
    ],
    [
      'a list compared whole',
      { header: { links: [] } },
      [{ path: 'header.links', before: live.header.links, after: [] }],
    ],
    [
      'an atomic value compared whole',
      { favicon: { emoji: '1f600' } },
      [{ path: 'favicon', before: live.favicon, after: { emoji: '1f600' } }],
    ],
    [
      'null against a missing key is a change',
      { announcement: null },
      [{ path: 'announcement', before: null, after: null }],
    ],
  ])('%s', (_, desired, changes) => {
    const found = sparseChanges(desired, live, atomic);
    // null against missing: before shows null, yet it is a change (the key is written).
    expect(found).toEqual(changes);
  });

  it('a site not read yet: every key is a change', () => {
    expect(sparseChanges({ title: 'A' }, undefined)).toEqual([{ path: 'title', before: null, after: 'A' }]);
  });
});

describe('mergeSparse', () => {
  it.each([
    ['nothing given: the live document', {}, live],
    [
      'a deep key: set, its siblings kept',
      { styling: { primaryColor: { light: '#0055FF' } } },
      { ...live, styling: { ...live.styling, primaryColor: { light: '#0055FF', dark: '#346DDB' } } },
    ],
    ['a new branch: made', { footer: { copyright: 'c' } }, { ...live, footer: { copyright: 'c' } }],
    [
      'an atomic value: replaced whole',
      { favicon: { emoji: '1f600' } },
      { ...live, favicon: { emoji: '1f600' } },
    ],
    [
      'a list: replaced whole',
      { header: { links: [] } },
      { ...live, header: { preset: 'default', links: [] } },
    ],
  ])('%s', (_, desired, merged) => {
    expect(JSON.parse(JSON.stringify(mergeSparse(live, desired, atomic)))).toEqual(merged);
  });

  it('leaves its inputs unchanged', () => {
    const before = JSON.stringify(live);
    mergeSparse(live, { styling: { theme: 'bold' } });
    expect(JSON.stringify(live)).toBe(before);
  });

  it('a key named __proto__ in live data stays an ordinary key', () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const out = withValueAt(doc, ['__proto__', 'y'], 2);
    expect(valueAtPath(out, ['__proto__', 'y'])).toBe(2);
    expect(({} as Record<string, unknown>)['y']).toBeUndefined();
  });

  it('merging the changes makes the documents agree: no change left', () => {
    const desired = {
      styling: { theme: 'bold', primaryColor: { light: '#111111' } },
      trademark: { enabled: false },
    };
    expect(sparseChanges(desired, mergeSparse(live, desired, atomic), atomic)).toEqual([]);
  });
});

describe('changeFields', () => {
  it('before and after keyed by the changed paths only', () => {
    expect(
      changeFields([{ path: 'styling.primaryColor.light', before: '#346DDB', after: '#0055FF' }]),
    ).toEqual({
      before: { 'styling.primaryColor.light': '#346DDB' },
      after: { 'styling.primaryColor.light': '#0055FF' },
    });
  });
});

describe('nonDefault', () => {
  const defaults = {
    styling: { theme: 'clean', primaryColor: { light: '#346DDB', dark: '#346DDB' } },
    favicon: {},
  };
  it.each([
    [
      'all default: nothing',
      { styling: { theme: 'clean', primaryColor: { light: '#346DDB', dark: '#346DDB' } }, favicon: {} },
      {},
    ],
    [
      'one deep key differs: only it',
      { styling: { theme: 'clean', primaryColor: { light: '#000000', dark: '#346DDB' } }, favicon: {} },
      { styling: { primaryColor: { light: '#000000' } } },
    ],
    ['a key the defaults lack', { title: 'Docs', favicon: {} }, { title: 'Docs' }],
    ['an atomic value whole', { favicon: { emoji: '1f600' } }, { favicon: { emoji: '1f600' } }],
  ])('%s', (_, doc, want) => {
    const out = nonDefault(doc, defaults, new Set(['favicon']));
    expect(out).toEqual(want);
    // What export writes plans no change against the same document.
    expect(sparseChanges(out, doc, new Set(['favicon']))).toEqual([]);
  });
});
