import { describe, expect, it } from 'vitest';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import { diffContext } from '../../test/helpers/diff-context.js';
import type { LiveSiteSpace, LiveStructure } from './site-section.js';
import { normalizeStructure } from './site-structure-config.js';
import { diffStructure } from './site-structure-diff.js';

/**
 * Site spaces' paths stay unique while they change (site-structure-unique.ts): a place is handed
 * to the ordering only when a path it sets is held there now; these are the cases where it is,
 * and where it is not (decision 42, seventeenth pass, item6).
 */

const context = (): DiffContext => ({ ...diffContext({ prune: true }), org: 'org' });
const scope = (): SiteScope => ({
  addr: 'org/sites/Docs',
  ref: { id: 'site_1' },
  patch: { before: {}, after: {}, body: {}, deps: [] },
});

const live = (space: string, path: string): LiveSiteSpace => ({
  id: `ss_${space}`,
  space,
  path,
  condition: null,
  default: false,
  draft: false,
  hidden: false,
  pageId: null,
});

/** The root's site spaces diffed: wanted (space, path) against live (space, path). */
function diffRoot(wanted: [string, string][], had: [string, string][], sections?: LiveStructure['sections']) {
  const ctx = context();
  const d = normalizeStructure({ spaces: wanted.map(([space, path]) => ({ space, path })) } as never);
  const l: LiveStructure = { spaces: had.map(([space, path]) => live(space, path)), sections };
  diffStructure(ctx, scope(), 'Docs', d, l);
  const drafts = ctx.drafts.drafts.map((x) => ({ key: x.key, deps: x.deps, after: x.after }));
  return { drafts, problems: ctx.problems.map((p) => p.code) };
}

const update = (space: string) => `update:org/sites/Docs/spaces/${space}`;
const depsOf = (r: ReturnType<typeof diffRoot>, key: string) => r.drafts.find((x) => x.key === key)?.deps;

describe("site spaces' paths while they change", () => {
  it('a path set to a free one waits for nothing', () => {
    const r = diffRoot(
      [
        ['a', 'v1-new'],
        ['b', 'v2'],
      ],
      [
        ['a', 'v1'],
        ['b', 'v2'],
      ],
    );
    expect(depsOf(r, update('a'))).toEqual([]);
    expect(r.problems).toEqual([]);
  });

  it('a path another frees is set after it (a chain)', () => {
    const r = diffRoot(
      [
        ['a', 'v2'],
        ['b', 'v3'],
      ],
      [
        ['a', 'v1'],
        ['b', 'v2'],
      ],
    );
    expect(depsOf(r, update('a'))).toEqual([update('b')]);
    expect(depsOf(r, update('b'))).toEqual([]);
  });

  it('two exchanged paths take a temporary one', () => {
    const r = diffRoot(
      [
        ['a', 'v2'],
        ['b', 'v1'],
      ],
      [
        ['a', 'v1'],
        ['b', 'v2'],
      ],
    );
    expect(r.drafts.some((x) => x.key.endsWith(':temporary-path'))).toBe(true);
    expect(r.problems).toEqual([]);
  });

  it('a path another keeps is a conflict', () => {
    const r = diffRoot(
      [
        ['a', 'v2'],
        ['b', 'v2'],
      ],
      [
        ['a', 'v1'],
        ['b', 'v2'],
      ],
    );
    expect(r.problems).toEqual(['path-conflict']);
  });

  it('a path a deleted site space holds is set after the delete', () => {
    const r = diffRoot(
      [['a', 'v2']],
      [
        ['a', 'v1'],
        ['b', 'v2'],
      ],
    );
    const del = r.drafts.find((x) => x.key.startsWith('delete:'))!.key;
    expect(depsOf(r, update('a'))).toEqual([del]);
  });

  it('in a large place (searched by the ordering itself), the same', () => {
    const many = Array.from({ length: 40 }, (_, i): [string, string] => [`s${i}`, `p${i}`]);
    const free = diffRoot(
      many.map(([s, p], i) => [s, i === 3 ? 'new' : p]),
      many,
    );
    expect(depsOf(free, update('s3'))).toEqual([]);
    const chain = diffRoot(
      many.map(([s, p], i) => [s, i === 3 ? 'p4' : i === 4 ? 'new' : p]),
      many,
    );
    expect(depsOf(chain, update('s3'))).toEqual([update('s4')]);
  });
});
