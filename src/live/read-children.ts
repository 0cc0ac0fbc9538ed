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
    // Which reads are wanted is known before the first starts: `children` itself when it wants
    // them all (no array made an item; `attachBelow` only reads it). In line, as the reads are
    // below: a function of their own was one more compile job each (decision 42's seventeenth pass).
    let wanted: ChildRead<unknown, unknown>[] | undefined;
    for (let i = 0; i < children.length; i += 1) {
      const c = children[i]!;
      const wants =
        !absentHere(c, api.capabilities) &&
        (!c.applies || c.applies(item)) &&
        (!scope || c.wanted(item, scope.wants));
      // The first read left out: those before it are wanted, and from here on each is added.
      if (!wants) wanted ??= children.slice(0, i);
      else if (wanted) wanted.push(c);
    }
    const below = wanted ?? children;
    const reads: Promise<unknown>[] = [];
    for (const c of below)
      reads.push(t('list' in c ? api.list(c.list(orgId, item)) : api.request(c.call(orgId, item))));
    // One read (a team's members: most items): its answer as `Promise.all` of it would give it, an
    // array of one, two turns of the microtasks after the read ends (so nothing runs earlier or
    // later than it did), without what `Promise.all` makes and keeps while the read waits in the
    // client's queue: its promise and their resolving functions, the array of answers, the read's
    // element function and their contexts (decision 42's seventeenth pass).
    const answers = reads.length === 1 ? reads[0]!.then(inArray) : Promise.all(reads);
    return answers.then((got) => attachBelow(api, orgId, item, below, got, scope, t));
  } catch (error) {
    // As an async function did: what a read's declaration throws rejects the item's promise.
    return Promise.reject(error as Error);
  }
}

/** The answer of an item's one read, as the answers of its reads (`Promise.all`'s array). */
export const inArray = (answer: unknown): unknown[] => [answer];

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
