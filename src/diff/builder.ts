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

/**
 * A draft builder for the kind named `kind` (its name in the plan). Its methods live on a class,
 * not in closures made per call: kinds ask for a builder per site (issue 33).
 */
export function kindDrafts<O extends OpShape>(ctx: DiffContext, kind: string): KindDrafts<O> {
  return new Builder<O>(ctx, kind);
}

class Builder<O extends OpShape> implements KindDrafts<O> {
  constructor(
    private readonly ctx: DiffContext,
    private readonly kind: string,
  ) {}

  private add(
    action: 'create' | 'update' | 'move' | 'delete',
    step: Step<O>,
    before: Fields | null,
    after: Fields | null,
  ): string {
    const key = step.key ?? `${action}:${step.address}`;
    this.ctx.drafts.add({
      key,
      action,
      kind: this.kind,
      address: step.address,
      before,
      after,
      deps: step.deps,
      note: step.note,
      op: step.op,
      follows: step.follows,
    });
    return key;
  }

  create(step: Step<O> & { after: Fields }): string {
    return this.add('create', step, null, step.after);
  }
  update(step: Step<O> & { before: Fields | null; after: Fields }): string {
    return this.add('update', step, step.before, step.after);
  }
  move(step: Step<O> & { before: Fields | null; after: Fields }): string {
    return this.add('move', step, step.before, step.after);
  }
  delete(step: Step<O> & { before: Fields }): string {
    return this.add('delete', step, step.before, null);
  }
  prune(
    step: Omit<Step<O>, 'deps' | 'note'> & { before: Fields; id?: string },
    prune = this.ctx.prune,
    reason?: string,
  ): string | undefined {
    const { id, address } = step;
    return pruneOrList(
      this.ctx,
      {
        key: step.key ?? (id === undefined ? `delete:${address}` : `delete:${address}#${id}`),
        kind: this.kind,
        address,
        before: step.before,
        op: step.op,
        follows: step.follows,
      },
      prune,
      reason,
    );
  }
}
