import { z } from 'zod';
import { DefaultLevel, duplicatesOf, pin, previously } from './fields.js';
import { Level, nullish } from '../api/schema.js';
import { pairByIdentity, problem, pruneOrList, type DiffContext } from '../diff/context.js';
import { changedFields, createdRef, fieldsToSet, liveRef } from '../diff/draft.js';
import { SET_AFTER_CREATION, type Patch, type Ref } from '../model/change.js';
import type { DesiredOrganization, Renamable } from '../model/desired.js';
import type { DefaultLevel as AccessLevel } from '../model/kinds.js';
import type { LiveOrganization } from '../model/live.js';
import type { LiveTree } from './registry.js';
import { spaceAddress, spaceKind, type DesiredSpace, type LiveSpace } from './space.js';
import { deleteCall, idOutput, type ApiList, type KindModule } from './types.js';

export type CollectionOp =
  | { type: 'create-collection'; org: string; title: string; parent?: Ref }
  | { type: 'update-collection'; collection: Ref; patch: Patch }
  | { type: 'move-collection'; collection: Ref; parent: Ref | null }
  | { type: 'delete-collection'; collection: Ref };

const Answer = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: nullish(z.string()),
  parent: nullish(z.string()),
  defaultLevel: nullish(Level),
});
type Answer = z.infer<typeof Answer>;

/** One entry of `collections` in a config file. */
const Config = z.strictObject({
  title: z.string().min(1).max(50).describe('Identity of the collection (unless id is pinned).'),
  id: pin('title'),
  previously: previously('title'),
  description: z.string().max(100).optional(),
  defaultLevel: DefaultLevel.optional(),
  parent: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe('Title of the parent collection, or null for the top level.'),
});

type Path = (string | number)[];

/** What the tree's config checks may report, in one organization's files (`F`: a file). */
type TreeChecks<F> = {
  unique: (what: string) => (identity: string, file: F, path: Path) => void;
  report: (file: F, path: Path, message: string) => void;
};

/** The tree's part of one config file. */
type TreeConfig = {
  collections?: z.infer<typeof Config>[];
  spaces?: { id: string; parent?: string | null }[];
};

/**
 * Checks of the tree across an organization's files: each collection and space once, and parents
 * that are declared and form no cycle (`parents` after every file was `declare`d).
 */
function treeChecks<F>(on: TreeChecks<F>) {
  const titles = on.unique('collection');
  const ids = on.unique('collection id');
  const spaces = on.unique('space');
  const declared = new Map<string, string | null | undefined>();
  const parentProblem = (parent: string | null | undefined, self?: string): string | undefined => {
    if (parent === null || parent === undefined) return undefined;
    if (!declared.has(parent)) return `no collection titled "${parent}" is declared in collections`;
    const seen = new Set<string>(self ? [self] : []);
    for (let p: string | null | undefined = parent; p; p = declared.get(p)) {
      if (seen.has(p)) return `collection parents form a cycle through "${p}"`;
      seen.add(p);
    }
    return undefined;
  };
  return {
    declare: (file: F, config: TreeConfig) =>
      config.collections?.forEach((c, i) => {
        if (c.id) ids(c.id, file, ['collections', i, 'id']);
        titles(c.title, file, ['collections', i, 'title']);
        declared.set(c.title, c.parent);
      }),
    parents: (file: F, config: TreeConfig) => {
      config.collections?.forEach((c, i) => {
        const problem = parentProblem(c.parent, c.title);
        if (problem) on.report(file, ['collections', i, 'parent'], problem);
      });
      config.spaces?.forEach((s, i) => {
        const problem = parentProblem(s.parent);
        if (problem) on.report(file, ['spaces', i, 'parent'], problem);
      });
    },
    space: (file: F, id: string, i: number) => spaces(id, file, ['spaces', i, 'id']),
  };
}

const LIST = '/orgs/{org}/collections';
const ROUTE = '/collections/{collection}';
const address = (org: string, title: string) => `${org}/collections/${title}`;
const list = (org: string): ApiList<Answer> => ({ route: LIST, params: { org }, item: Answer, nested: true });

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

type CollectionSlot = {
  d: DesiredCollection;
  l: LiveCollection | undefined;
  ref: Ref;
  addr: string;
  createKey?: string;
};

/**
 * The organization's tree: collections by title (or pinned id), nested by parent title, and the
 * place and own fields of existing spaces. One diff step, because spaces move between collections
 * and a collection is deleted only after what moves out of it.
 */
function diffTree(
  ctx: DiffContext,
  desired: DesiredCollection[] | undefined,
  live: LiveCollection[],
  spaces: DesiredSpace[],
  liveSpaces: LiveSpace[],
): void {
  const { drafts, org } = ctx;
  const slots = new Map<string, CollectionSlot>();
  const moves: { key: string; fromParent: string | null }[] = [];
  if (desired) {
    ctx.managedLive.count += live.length;
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
          drafts.add({
            key: `update:${slot.addr}`,
            action: 'update',
            kind: 'collection',
            address: slot.addr,
            before: null,
            after: follow,
            deps: [slot.createKey],
            note: SET_AFTER_CREATION,
            op: { type: 'update-collection', collection: slot.ref, patch: follow },
          });
        continue;
      }
      const diff = changedFields(slot.d, slot.l, ['title', 'description', 'defaultLevel']);
      if (diff)
        drafts.add({
          key: `update:${slot.addr}`,
          action: 'update',
          kind: 'collection',
          address: slot.addr,
          ...diff,
          op: { type: 'update-collection', collection: slot.ref, patch: diff.after },
        });
      if (slot.d.parent !== undefined) {
        const want = parent ? parent.ref : null;
        const wantId = want && 'id' in want ? want.id : want ? 'new' : null;
        if (wantId !== slot.l.parent) {
          const key = `move:${slot.addr}`;
          drafts.add({
            key,
            action: 'move',
            kind: 'collection',
            address: slot.addr,
            before: { parent: titleOf(live, slot.l.parent) },
            after: { parent: slot.d.parent },
            deps: [parent?.createKey],
            op: { type: 'move-collection', collection: slot.ref, parent: want },
          });
          moves.push({ key, fromParent: slot.l.parent });
        }
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
    const want = parent ? parent.ref : null;
    const wantId = want && 'id' in want ? want.id : want ? 'new' : null;
    if (wantId === (l.parent ?? null)) continue;
    const key = `move:${addr}`;
    drafts.add({
      key,
      action: 'move',
      kind: 'space',
      address: addr,
      before: { parent: titleOf(live, l.parent ?? null) },
      after: { parent: d.parent },
      deps: [parent?.createKey],
      op: { type: 'move-space', spaceId: d.id, parent: want },
    });
    moves.push({ key, fromParent: l.parent ?? null });
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

function liveCollection(live: LiveCollection[], title: string): { ref: Ref; createKey?: string } | undefined {
  const c = live.find((x) => x.title === title);
  return c ? { ref: liveRef(c.id) } : undefined;
}

/** The organization's config manages its tree: collections, or an existing space's own fields. */
const manages = (org: DesiredOrganization): boolean =>
  org.collections !== undefined || (org.spaces ?? []).some((s) => spaceKind.managesFields(s));

/** A collection of spaces, by title (or pinned id), in a tree; it owns the spaces' placement. */
export const collectionKind = {
  kind: 'collection',
  config: Config,
  /** The spaces of the tree: their own fields, place and read (src/kinds/space.ts). */
  spaces: spaceKind,
  checks: treeChecks,
  /** Read when the config manages collections or places a space. */
  read: {
    wanted: (org: DesiredOrganization) =>
      org.collections !== undefined || (org.spaces ?? []).some((s) => s.parent !== undefined),
    list,
    live: (c: Answer): LiveCollection => ({
      id: c.id,
      title: c.title,
      description: c.description ?? null,
      defaultLevel: c.defaultLevel ?? null,
      parent: c.parent ?? null,
    }),
  },
  export: {
    file: 'spaces.yaml',
    header: 'Collections and spaces',
    /** The tree as a config file's keys; a space's facets as `facets` writes them. */
    entries: (
      org: LiveTree,
      facets: (space: LiveSpace) => Record<string, unknown>,
      warnings: string[],
    ): Record<string, unknown> => {
      const collections = org.collections ?? [];
      const collectionTitle = (id: string | null | undefined) =>
        id ? (collections.find((c) => c.id === id)?.title ?? null) : null;
      const dupCollections = duplicatesOf(collections.map((c) => c.title));
      for (const t of dupCollections)
        warnings.push(
          `two collections are titled "${t}": their parents cannot be named by title; pinned by id`,
        );
      return {
        ...(org.collections
          ? {
              collections: collections.map((c) => ({
                title: c.title,
                ...(dupCollections.has(c.title) ? { id: c.id } : {}),
                ...(c.description !== null ? { description: c.description } : {}),
                ...(c.defaultLevel !== null ? { defaultLevel: c.defaultLevel } : {}),
                ...(c.parent && !dupCollections.has(collectionTitle(c.parent) ?? '')
                  ? { parent: collectionTitle(c.parent) }
                  : {}),
              })),
            }
          : {}),
        spaces: (org.spaces ?? []).map((s) => ({
          id: s.id,
          ...(s.title !== undefined ? { title: s.title } : {}),
          ...(s.emoji ? { emoji: s.emoji } : {}),
          ...(s.editMode ? { editMode: s.editMode } : {}),
          ...(s.defaultLevel !== undefined && s.defaultLevel !== null
            ? { defaultLevel: s.defaultLevel }
            : {}),
          ...(s.title !== undefined && !dupCollections.has(collectionTitle(s.parent) ?? '')
            ? { parent: collectionTitle(s.parent) }
            : {}),
          ...facets(s),
        })),
      };
    },
  },
  diff: (ctx: DiffContext, desired: DesiredOrganization, live: LiveOrganization): void => {
    if (manages(desired))
      diffTree(ctx, desired.collections, live.collections ?? [], desired.spaces ?? [], live.spaces ?? []);
  },
  ops: {
    'create-collection': {
      call: (op, r) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { title: op.title, ...(op.parent ? { parent: r.ref(op.parent) } : {}) },
        expect: [201],
        answer: Answer,
        create: true,
      }),
      output: idOutput,
      adopt: {
        list: (op) => list(op.org),
        find: (c: Answer, op, r) =>
          c.title === op.title && (c.parent ?? null) === (op.parent ? r.ref(op.parent) : null),
        output: idOutput,
      },
    },
    'update-collection': {
      call: (op, r) => ({
        method: 'PATCH',
        route: ROUTE,
        params: { collection: r.ref(op.collection) },
        body: r.patch(op.patch),
        expect: [200],
        answer: Answer,
      }),
    },
    'move-collection': {
      call: (op, r) => ({
        method: 'POST',
        route: '/collections/{collection}/move',
        params: { collection: r.ref(op.collection) },
        body: { parent: op.parent ? r.ref(op.parent) : null },
        expect: [200],
      }),
    },
    'delete-collection': {
      call: (op, r, caps) => deleteCall(ROUTE, { collection: r.ref(op.collection) }, caps),
    },
  },
} satisfies KindModule<CollectionOp> & Record<string, unknown>;
