import { describe, expect, it } from 'vitest';
import { kindDrafts } from './builder.js';
import type { DiffContext } from './context.js';
import { diffContext } from '../../test/helpers/diff-context.js';

type ToyOp = { type: 'make-toy'; name: string } | { type: 'drop-toy'; id: string };

const context = (prune: boolean): DiffContext => diffContext({ prune });

describe('kindDrafts', () => {
  it('keys each draft by action and address, names the kind, and returns the key', () => {
    const ctx = context(true);
    const toys = kindDrafts<ToyOp>(ctx, 'toy');
    const made = toys.create({
      address: 'org_t/toys/a',
      after: { name: 'a' },
      op: { type: 'make-toy', name: 'a' },
    });
    const moved = toys.move({
      address: 'org_t/toys/a',
      before: null,
      after: { after: 'b' },
      deps: [made, undefined],
      op: { type: 'make-toy', name: 'a' },
    });
    const dropped = toys.prune({
      address: 'org_t/toys/b',
      id: 'toy_2',
      before: { name: 'b' },
      op: { type: 'drop-toy', id: 'toy_2' },
    });
    expect([made, moved, dropped]).toEqual([
      'create:org_t/toys/a',
      'move:org_t/toys/a',
      'delete:org_t/toys/b#toy_2',
    ]);
    expect(ctx.drafts.drafts.map((d) => [d.action, d.kind, d.before, d.after, d.deps])).toEqual([
      ['create', 'toy', null, { name: 'a' }, []],
      ['move', 'toy', null, { after: 'b' }, ['create:org_t/toys/a']],
      ['delete', 'toy', { name: 'b' }, null, []],
    ]);
  });

  it('lists a live object as unmanaged instead of deleting it when the policy does not prune', () => {
    const ctx = context(false);
    const key = kindDrafts<ToyOp>(ctx, 'toy').prune({
      address: 'org_t/toys/b',
      before: {},
      op: { type: 'drop-toy', id: 'toy_2' },
    });
    expect(key).toBeUndefined();
    expect(ctx.drafts.drafts).toEqual([]);
    expect(ctx.unmanaged).toEqual([{ kind: 'toy', address: 'org_t/toys/b' }]);
  });
});
