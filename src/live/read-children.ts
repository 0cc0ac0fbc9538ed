import type { ApiClient } from '../api/client.js';
import { absentHere } from '../kinds/registry.js';
import type { ChildRead } from '../kinds/types.js';
import type { Track } from './tracker.js';

/**
 * The reads below one item that the config wants (all, for export), attached in order. Not an
 * async function: it runs for every item of a page at once, so an async one was optimized before
 * any of its awaits had resumed, and deoptimized when the first did (the code after them had no
 * type feedback); the answers are attached by `attachBelow`, a function of its own.
 */
export function readChildren(
  api: ApiClient,
  orgId: string,
  item: unknown,
  children: readonly ChildRead<unknown, unknown>[],
  /** What the config wants below items; undefined: everything (export). */
  scope: { wants: unknown } | undefined,
  t: Track,
): Promise<unknown> {
  try {
    // Loops, no arrays between (issue 33: this runs for every site while its reads start); which
    // reads are wanted is known before the first starts.
    const wanted: ChildRead<unknown, unknown>[] = [];
    for (const c of children) {
      if (absentHere(c, api.capabilities)) continue;
      if ((!c.applies || c.applies(item)) && (!scope || c.wanted(item, scope.wants))) wanted.push(c);
    }
    const reads: Promise<unknown>[] = [];
    for (const c of wanted)
      reads.push(t('list' in c ? api.list(c.list(orgId, item)) : api.request(c.call(orgId, item))));
    return Promise.all(reads).then((answers) => attachBelow(api, orgId, item, wanted, answers, scope, t));
  } catch (error) {
    // As an async function did: what a read's declaration throws rejects the item's promise.
    return Promise.reject(error as Error);
  }
}

/** The answers of the reads below one item, attached in order; then the reads that need them. */
function attachBelow(
  api: ApiClient,
  orgId: string,
  item: unknown,
  wanted: readonly ChildRead<unknown, unknown>[],
  answers: readonly unknown[],
  scope: { wants: unknown } | undefined,
  t: Track,
): unknown {
  let full = item;
  for (let i = 0; i < wanted.length; i += 1) full = wanted[i]!.attach(full, answers[i] as never);
  // Reads that need this round's answers (a site space's overrides need its id).
  const next: ChildRead<unknown, unknown>[] = [];
  // One by one: a spread of a long list as arguments can overflow the stack (an export's site
  // of 150,000 site spaces).
  for (const c of wanted) if (c.then) for (const read of c.then(full, scope?.wants)) next.push(read);
  return next.length === 0 ? full : readChildren(api, orgId, full, next, undefined, t);
}
