import type { Fields, OpShape } from '../model/index.js';
import { pruneOrList, type DiffContext } from './context.js';

/** What every draft of a kind says besides its action: where, what changes, after what, and the call. */
type Step<O> = {
  address: string;
  /** Other drafts this one waits for, by key (undefined entries are dropped). */
  deps?: (string | undefined)[];
  note?: string;
  op: O;
  /** The key, where another draft already names this one by a key of its own (`:temporary-path`…). */
  key?: string;
  /** The resources it is planned for: a partial plan that takes one of them takes it too. */
  follows?: string[];
};

/**
 * The drafts of one kind, by action: each derives its key from the action and the address
 * (`create:<address>`, `update:<address>`, `move:<address>`, `delete:<address>`, with `#<id>`
 * for a live object the config omits), names the kind, and returns the key for others to depend on.
 * `O` is the kind's own operations: a kind adds no other.
 */
export type KindDrafts<O extends OpShape> = {
  create(step: Step<O> & { after: Fields }): string;
  update(step: Step<O> & { before: Fields | null; after: Fields }): string;
  move(step: Step<O> & { before: Fields | null; after: Fields }): string;
  /** A deletion the config asks for (a relation that ends, a site space that moves out). */
  delete(step: Step<O> & { before: Fields }): string;
  /**
   * A live object of the kind that the config does not describe: deleted when pruning (keyed by
   * its live `id` too, as two live objects may share an address), listed as unmanaged otherwise.
   * Returns the key of the delete draft, if there is one.
   */
  prune(
    step: Omit<Step<O>, 'deps' | 'note'> & { before: Fields; id?: string },
    prune?: boolean,
    reason?: string,
  ): string | undefined;
};

/** A draft builder for the kind named `kind` (its name in the plan). */
export function kindDrafts<O extends OpShape>(ctx: DiffContext, kind: string): KindDrafts<O> {
  const add = (
    action: 'create' | 'update' | 'move' | 'delete',
    step: Step<O> & { before: Fields | null; after: Fields | null },
  ): string => {
    const { address, key = `${action}:${address}`, ...rest } = step;
    ctx.drafts.add({ key, action, kind, address, ...rest });
    return key;
  };
  return {
    create: (step) => add('create', { ...step, before: null }),
    update: (step) => add('update', step),
    move: (step) => add('move', step),
    delete: (step) => add('delete', { ...step, after: null }),
    prune: ({ id, key, ...step }, prune = ctx.prune, reason) =>
      pruneOrList(
        ctx,
        { key: key ?? `delete:${step.address}${id === undefined ? '' : `#${id}`}`, kind, ...step },
        prune,
        reason,
      ),
  };
}
