import type { OpShape } from '../model/index.js';
import type { KindDrafts } from './builder.js';
import type { DiffContext } from './context.js';
import type { DraftSet } from './draft.js';

/** One item of a scope whose paths must stay unique (sections of a site, site spaces of a section). */
export type PathItem = {
  label: string;
  /** Current path, or null when the item does not exist yet. */
  livePath: string | null;
  /** Path the plan gives it, or null when the plan does not change its path. */
  wantPath: string | null;
  /** Key of the draft that sets `wantPath`. */
  setKey?: string;
  /** Key of the draft that deletes the item, if it is deleted. */
  deleteKey?: string;
};

/**
 * The item holding each live path (the last one given, as a map's would be). A scope of a few items
 * (the site spaces of a section) is searched, not indexed (issue 33: allocation).
 */
function holders(items: readonly PathItem[]): (path: string) => PathItem | undefined {
  if (items.length <= 16)
    return (path) => {
      for (let i = items.length - 1; i >= 0; i -= 1) if (items[i]!.livePath === path) return items[i];
      return undefined;
    };
  const holder = new Map<string, PathItem>();
  for (const item of items) if (item.livePath !== null) holder.set(item.livePath, item);
  return (path) => holder.get(path);
}

/**
 * Order path changes so that no two items ever hold the same path: a change to path p waits for
 * the change that frees p (a delete or another path change). A cycle (two items swapping paths)
 * is broken with a temporary path, which costs one extra change. Returns problems that a plan
 * cannot solve (an item that keeps a path another item wants).
 */
function orderPathChanges(
  items: PathItem[],
  drafts: DraftSet,
  makeTemporary: (item: PathItem, temporaryPath: string) => string,
): string[] {
  const problems: string[] = [];
  // No path changes (most scopes of most plans): nothing to order, nothing to conflict.
  if (!items.some((item) => item.wantPath !== null && item.wantPath !== item.livePath && item.setKey))
    return problems;
  const holderOf = holders(items);
  const next = new Map<PathItem, PathItem>();
  for (const item of items) {
    const want = item.wantPath;
    if (want === null || want === item.livePath || !item.setKey) continue;
    const other = holderOf(want);
    if (!other || other === item) continue;
    if (other.deleteKey) drafts.depend(item.setKey, other.deleteKey);
    else if (other.wantPath !== null && other.wantPath !== want && other.setKey) {
      drafts.depend(item.setKey, other.setKey);
      next.set(item, other);
    } else problems.push(`"${item.label}" wants the path "${want}", which "${other.label}" keeps`);
  }
  // Each item waits on at most one other: follow the chains to find cycles.
  if (next.size === 0) return problems;
  const state = new Map<PathItem, 'visiting' | 'done'>();
  const taken = new Set<string>();
  for (const i of items) {
    if (i.livePath) taken.add(i.livePath);
    if (i.wantPath) taken.add(i.wantPath);
  }
  for (const start of items) {
    const chain: PathItem[] = [];
    let cur: PathItem | undefined = start;
    while (cur && !state.has(cur)) {
      state.set(cur, 'visiting');
      chain.push(cur);
      cur = next.get(cur);
    }
    if (cur && state.get(cur) === 'visiting') {
      const cycle = chain.slice(chain.indexOf(cur));
      const victim = cycle.reduce((a, b) => (a.label <= b.label ? a : b));
      let temp = `${victim.livePath}-docsync-tmp`.slice(0, 100);
      for (let n = 2; taken.has(temp); n += 1) temp = `${victim.livePath}-docsync-tmp-${n}`.slice(0, 100);
      taken.add(temp);
      const tempKey = makeTemporary(victim, temp);
      // Whoever waited for the victim to free its path now waits for the temporary move instead.
      const waiter = cycle.find((i) => next.get(i) === victim)!;
      const waiterDraft = drafts.get(waiter.setKey!)!;
      waiterDraft.deps = waiterDraft.deps.filter((d) => d !== victim.setKey);
      drafts.depend(waiter.setKey!, tempKey);
      drafts.depend(victim.setKey!, tempKey);
    }
    for (const item of chain) state.set(item, 'done');
  }
  return problems;
}

/**
 * Paths of one scope stay unique while they change (`orderPathChanges`); an item parked on a
 * temporary path gets `park`'s operation, a draft of the scope's kind. What cannot be ordered is a
 * `path-conflict` problem.
 */
export function keepPathsUnique<O extends OpShape>(
  ctx: DiffContext,
  items: PathItem[],
  drafts: KindDrafts<O>,
  park: (item: PathItem, path: string) => NoInfer<O>,
): void {
  const temporary = (item: PathItem, path: string): string =>
    drafts.update({
      key: `${item.setKey}:temporary-path`,
      address: ctx.drafts.get(item.setKey!)!.address,
      before: { path: item.livePath },
      after: { path },
      note: 'temporary path, so that paths can be exchanged',
      op: park(item, path),
    });
  for (const message of orderPathChanges(items, ctx.drafts, temporary))
    ctx.problems.push({ organization: ctx.org, message, code: 'path-conflict' });
}
