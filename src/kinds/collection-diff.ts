import { countLive, type DiffContext, pairByIdentity, problem, pruneOrList } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import { SET_AFTER_CREATION, type ChangeOp, type Fields, type Ref } from '../model/change.js';
import type { Renamable } from '../model/desired.js';
import type { DefaultLevel as AccessLevel } from '../model/kinds.js';
import { spaceAddress, type DesiredSpace, type LiveSpace } from './space.js';

export type DesiredCollection = Renamable & {
  title: string;
  description?: string;
  defaultLevel?: AccessLevel;
  /** Title of the parent collection, or null for the top level. */
  parent?: string | null;
};

export type LiveCollection = {
  id: string;
  title: string;
  description: string | null;
  defaultLevel: AccessLevel;
  parent: string | null;
};

/** How a change names a collection: its reference, and the draft creating it (if new). */
type Parent = { ref: Ref; createKey?: string };

type CollectionSlot = Parent & {
  d: DesiredCollection;
  l: LiveCollection | undefined;
  addr: string;
};

const address = (org: string, title: string) => `${org}/collections/${title}`;

/**
 * The organization's tree: collections by title (or pinned id), nested by parent title, and the
 * place and own fields of existing spaces. One diff step, because spaces move between collections
 * and a collection is deleted only after what moves out of it.
 */
export function diffTree(
  ctx: DiffContext,
  desired: DesiredCollection[] | undefined,
  live: LiveCollection[],
  spaces: DesiredSpace[],
  liveSpaces: LiveSpace[],
): void {
  const { drafts, org } = ctx;
  const slots = new Map<string, CollectionSlot>();
  const moves: { key: string; fromParent: string | null }[] = [];
  const updateCollection = (
    slot: CollectionSlot,
    change: { before: Fields | null; after: Fields; deps?: (string | undefined)[]; note?: string },
  ) =>
    drafts.add({
      key: `update:${slot.addr}`,
      action: 'update',
      kind: 'collection',
      address: slot.addr,
      ...change,
      op: { type: 'update-collection', collection: slot.ref, patch: change.after },
    });
  /** A collection's or space's move from the collection `from` (an id) into `parent`, if it differs. */
  const move = (
    kind: 'collection' | 'space',
    addr: string,
    from: string | null,
    to: string | null,
    parent: Parent | undefined,
    op: (parent: Ref | null) => ChangeOp,
  ): void => {
    const want = parent ? parent.ref : null;
    const wantId = want && 'id' in want ? want.id : want ? 'new' : null;
    if (wantId === from) return;
    const key = `move:${addr}`;
    drafts.add({
      key,
      action: 'move',
      kind,
      address: addr,
      before: { parent: titleOf(live, from) },
      after: { parent: to },
      deps: [parent?.createKey],
      op: op(want),
    });
    moves.push({ key, fromParent: from });
  };
  if (desired) {
    countLive(ctx, 'collection', live.length);
    const { pairs, leftover } = pairByIdentity(ctx, 'collection', desired, live, (x) => x.title);
    for (const [d, l] of pairs) {
      const addr = address(org, d.title);
      slots.set(d.title, { d, l, ref: l ? liveRef(l.id) : { id: '' }, addr });
    }
    // Parents first, so a child's creation can name its parent.
    const depth = (d: DesiredCollection, n = 0): number =>
      d.parent && n < 50 ? depth(slots.get(d.parent)?.d ?? d, n + 1) : n;
    const ordered = [...slots.values()].sort((a, b) => depth(a.d) - depth(b.d));
    for (const slot of ordered) {
      const parent = slot.d.parent ? slots.get(slot.d.parent) : undefined;
      if (!slot.l) {
        slot.createKey = `create:${slot.addr}`;
        slot.ref = createdRef(slot.createKey);
        drafts.add({
          key: slot.createKey,
          action: 'create',
          kind: 'collection',
          address: slot.addr,
          before: null,
          after: { title: slot.d.title, ...(slot.d.parent ? { parent: slot.d.parent } : {}) },
          deps: [parent?.createKey],
          op: {
            type: 'create-collection',
            org,
            title: slot.d.title,
            ...(parent ? { parent: parent.ref } : {}),
          },
        });
        const follow = fieldsToSet(slot.d, ['description', 'defaultLevel']);
        if (follow)
          updateCollection(slot, {
            before: null,
            after: follow,
            deps: [slot.createKey],
            note: SET_AFTER_CREATION,
          });
        continue;
      }
      const diff = changedFields(slot.d, slot.l, ['title', 'description', 'defaultLevel']);
      if (diff) updateCollection(slot, diff);
      if (slot.d.parent !== undefined) {
        move('collection', slot.addr, slot.l.parent, slot.d.parent, parent, (to) => ({
          type: 'move-collection',
          collection: slot.ref,
          parent: to,
        }));
      }
    }
    for (const l of leftover) {
      const addr = address(org, l.title);
      pruneOrList(ctx, {
        key: `delete:${addr}#${l.id}`,
        kind: 'collection',
        address: addr,
        before: { title: l.title },
        op: { type: 'delete-collection', collection: liveRef(l.id) },
      });
    }
  }
  // Spaces: their own fields, and their parent collection.
  const liveById = new Map(liveSpaces.map((s) => [s.id, s]));
  for (const d of spaces) {
    const l = liveById.get(d.id);
    if (!l || l.title === undefined) continue;
    const addr = spaceAddress(org, d.id);
    const diff = changedFields(d, l, ['title', 'emoji', 'editMode', 'defaultLevel']);
    if (diff)
      drafts.add({
        key: `update:${addr}`,
        action: 'update',
        kind: 'space',
        address: addr,
        ...diff,
        op: { type: 'update-space', spaceId: d.id, patch: diff.after },
      });
    if (d.parent === undefined) continue;
    const parent = d.parent ? (slots.get(d.parent) ?? liveCollection(live, d.parent)) : undefined;
    if (d.parent && !parent) {
      problem(ctx, `space ${d.id}: no collection titled "${d.parent}"`, 'unknown-reference');
      continue;
    }
    move('space', addr, l.parent ?? null, d.parent, parent, (to) => ({
      type: 'move-space',
      spaceId: d.id,
      parent: to,
    }));
  }
  // A collection is deleted after what moves out of it; a child collection before its parent.
  for (const draft of drafts.drafts) {
    if (draft.op.type !== 'delete-collection' || !('id' in draft.op.collection)) continue;
    const id = draft.op.collection.id;
    for (const m of moves) if (m.fromParent === id) drafts.depend(draft.key, m.key);
    for (const child of live.filter((c) => c.parent === id)) {
      const childDelete = drafts.drafts.find(
        (x) =>
          x.op.type === 'delete-collection' && 'id' in x.op.collection && x.op.collection.id === child.id,
      );
      if (childDelete) drafts.depend(draft.key, childDelete.key);
    }
  }
}

function titleOf(live: LiveCollection[], id: string | null): string | null {
  return id === null ? null : (live.find((c) => c.id === id)?.title ?? id);
}

function liveCollection(live: LiveCollection[], title: string): Parent | undefined {
  const c = live.find((x) => x.title === title);
  return c ? { ref: liveRef(c.id) } : undefined;
}
