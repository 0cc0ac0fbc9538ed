import { kindDrafts, type KindDrafts } from '../diff/builder.js';
import { countLive, pairByIdentity, problem, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import { SET_AFTER_CREATION, type Fields, type OpShape, type Ref } from '../model/change.js';
import type { Renamable } from '../model/desired.js';
import type { DefaultLevel as AccessLevel } from '../model/kinds.js';
import type { DesiredGrant, LiveGrant } from '../model/grants.js';
import { spaceAddress, type DesiredSpace, type LiveSpace, type SpaceOp } from './space.js';

export type DesiredCollection = Renamable & {
  title: string;
  description?: string;
  defaultLevel?: AccessLevel;
  /** Title of the parent collection, or null for the top level. */
  parent?: string | null;
  /** Grants (collection-grant.ts); undefined: not managed. */
  access?: DesiredGrant[];
};

export type LiveCollection = {
  id: string;
  title: string;
  description: string | null;
  defaultLevel: AccessLevel;
  parent: string | null;
  /** Grants, when read. */
  access?: LiveGrant[];
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
  const t: Tree = {
    ctx,
    org: ctx.org,
    live,
    slots: new Map(),
    moves: [],
    // The collection's operations are declared in collection.ts, which holds this diff.
    collectionDrafts: kindDrafts<OpShape>(ctx, 'collection'),
    spaceDrafts: kindDrafts<SpaceOp>(ctx, 'space'),
  };
  if (desired) diffCollections(t, desired);
  diffSpaces(t, spaces, liveSpaces);
  deleteAfterMovesOut(t);
}

/** What the steps of the tree's diff share. */
type Tree = {
  ctx: DiffContext;
  org: string;
  live: LiveCollection[];
  /** The desired collections, by title. */
  slots: Map<string, CollectionSlot>;
  /** Moves out of a live collection (which it is deleted after). */
  moves: { key: string; fromParent: string | null }[];
  collectionDrafts: KindDrafts<OpShape>;
  spaceDrafts: KindDrafts<SpaceOp>;
};

function updateCollection(
  t: Tree,
  slot: CollectionSlot,
  change: { before: Fields | null; after: Fields; deps?: (string | undefined)[]; note?: string },
): void {
  t.collectionDrafts.update({
    address: slot.addr,
    ...change,
    op: { type: 'update-collection', collection: slot.ref, patch: change.after },
  });
}

/** A collection's or space's move from the collection `from` (an id) into `parent`, if it differs. */
function move(
  t: Tree,
  kindDrafts: KindDrafts<OpShape>,
  addr: string,
  from: string | null,
  to: string | null,
  parent: Parent | undefined,
  op: (parent: Ref | null) => OpShape,
): void {
  const want = parent ? parent.ref : null;
  const wantId = want && 'id' in want ? want.id : want ? 'new' : null;
  if (wantId === from) return;
  const key = kindDrafts.move({
    address: addr,
    before: { parent: titleOf(t.live, from) },
    after: { parent: to },
    deps: [parent?.createKey],
    op: op(want),
  });
  t.moves.push({ key, fromParent: from });
}

/** Collections by title (or pinned id), parents first: creations, updates, moves, deletions. */
function diffCollections(t: Tree, desired: DesiredCollection[]): void {
  const { ctx, org, live, slots } = t;
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
      t.collectionDrafts.create({
        address: slot.addr,
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
        updateCollection(t, slot, {
          before: null,
          after: follow,
          deps: [slot.createKey],
          note: SET_AFTER_CREATION,
        });
      continue;
    }
    const diff = changedFields(slot.d, slot.l, ['title', 'description', 'defaultLevel']);
    if (diff) updateCollection(t, slot, diff);
    if (slot.d.parent !== undefined) {
      move(t, t.collectionDrafts, slot.addr, slot.l.parent, slot.d.parent, parent, (to) => ({
        type: 'move-collection',
        collection: slot.ref,
        parent: to,
      }));
    }
  }
  for (const l of leftover) {
    const addr = address(org, l.title);
    t.collectionDrafts.prune({
      address: addr,
      id: l.id,
      before: { title: l.title },
      op: { type: 'delete-collection', collection: liveRef(l.id) },
    });
  }
}

/** Spaces: their own fields, and their parent collection. */
function diffSpaces(t: Tree, spaces: DesiredSpace[], liveSpaces: LiveSpace[]): void {
  const { ctx, org } = t;
  const liveById = new Map(liveSpaces.map((s) => [s.id, s]));
  for (const d of spaces) {
    const l = liveById.get(d.id);
    if (!l || l.title === undefined) continue;
    const addr = spaceAddress(org, d.id);
    const diff = changedFields(d, l, ['title', 'emoji', 'editMode', 'defaultLevel']);
    if (diff)
      t.spaceDrafts.update({
        address: addr,
        ...diff,
        op: { type: 'update-space', spaceId: d.id, patch: diff.after },
      });
    if (d.parent === undefined) continue;
    const parent = d.parent ? (t.slots.get(d.parent) ?? liveCollection(t.live, d.parent)) : undefined;
    if (d.parent && !parent) {
      problem(ctx, `space ${d.id}: no collection titled "${d.parent}"`, 'unknown-reference');
      continue;
    }
    move(t, t.spaceDrafts, addr, l.parent ?? null, d.parent, parent, (to) => ({
      type: 'move-space',
      spaceId: d.id,
      parent: to,
    }));
  }
}

/** A collection is deleted after what moves out of it; a child collection before its parent. */
function deleteAfterMovesOut(t: Tree): void {
  const { drafts } = t.ctx;
  for (const draft of drafts.drafts) {
    const id = deletedCollection(draft.op);
    if (id === undefined) continue;
    for (const m of t.moves) if (m.fromParent === id) drafts.depend(draft.key, m.key);
    for (const child of t.live.filter((c) => c.parent === id)) {
      const childDelete = drafts.drafts.find((x) => deletedCollection(x.op) === child.id);
      if (childDelete) drafts.depend(draft.key, childDelete.key);
    }
  }
}

/** The live collection an operation deletes, if it deletes one. */
function deletedCollection(op: OpShape): string | undefined {
  if (op.type !== 'delete-collection') return undefined;
  const ref = op['collection'] as Ref;
  return 'id' in ref ? ref.id : undefined;
}

function titleOf(live: LiveCollection[], id: string | null): string | null {
  return id === null ? null : (live.find((c) => c.id === id)?.title ?? id);
}

function liveCollection(live: LiveCollection[], title: string): Parent | undefined {
  const c = live.find((x) => x.title === title);
  return c ? { ref: liveRef(c.id) } : undefined;
}
