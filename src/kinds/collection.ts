import { z } from 'zod';
import {
  defined,
  DefaultLevel,
  duplicatesOf,
  Level,
  parentTitle,
  pin,
  previously,
  shortTitlePinned,
} from './fields.js';
import { nullish } from '../model/schema.js';
import type { DiffContext } from '../diff/context.js';
import type { Patch, Ref } from '../model/change.js';
import { diffTree, type DesiredCollection, type LiveCollection } from './collection-diff.js';
import { spaceKind, type DesiredSpace, type LiveSpace } from './space.js';
import {
  deleteCall,
  idOutput,
  type ApiList,
  type EntryReference,
  type KindModule,
  type LiveReference,
} from './types.js';
import type { KindExamples } from './examples.js';
import { collectionGrantKind } from './collection-grant.js';

export type { DesiredCollection, LiveCollection } from './collection-diff.js';

/** The organization's tree (collections, existing spaces): this module owns its diff. */
export type DesiredTree = { collections?: DesiredCollection[]; spaces?: DesiredSpace[] };
export type LiveTree = { collections?: LiveCollection[]; spaces?: LiveSpace[] };

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
const Config = z
  .strictObject({
    title: z
      .string()
      .max(50)
      .describe(
        'Identity of the collection (unless id is pinned); empty only with id pinned, for an existing one.',
      ),
    id: pin('title'),
    previously: previously('title'),
    description: z.string().max(100).optional(),
    defaultLevel: DefaultLevel.optional(),
    parent: parentTitle('Title of the parent collection, or null for the top level.'),
    access: collectionGrantKind.config.optional().describe(collectionGrantKind.describe),
  })
  .superRefine(shortTitlePinned(1, 'collection'));

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
const list = (org: string): ApiList<Answer> => ({ route: LIST, params: { org }, item: Answer, nested: true });

/** The organization's config manages its tree: collections, or an existing space's own fields. */
const manages = (org: DesiredTree): boolean =>
  org.collections !== undefined || (org.spaces ?? []).some((s) => spaceKind.managesFields(s));

/** A collection of spaces, by title (or pinned id), in a tree; it owns the spaces' placement. */
export const collectionKind = {
  kind: 'collection',
  config: Config,
  /** The spaces of the tree: their own fields, place and read (src/kinds/space.ts). */
  spaces: spaceKind,
  /** The collections' grants (src/kinds/collection-grant.ts): read, diffed and exported with them. */
  grants: collectionGrantKind,
  checks: treeChecks,
  /** A `spaces[]` entry names an existing space by id (resolved when planning). */
  references: (org: DesiredTree): EntryReference[] => [
    ...(org.collections ?? []).flatMap((c, i) =>
      collectionGrantKind.references(c).map((r) => ({ ...r, path: ['collections', i, 'access', ...r.path] })),
    ),
    ...(org.spaces ?? []).map((s, i) => ({
      target: 'space',
      id: s.id,
      path: ['spaces', i, 'id'],
      holder: `spaces[${i}]`,
    })),
  ],
  /** The spaces the live read found (their own fields or facets). */
  liveReferences: (live: LiveTree): LiveReference[] => [
    { target: 'space', names: (live.spaces ?? []).map((s) => s.id) },
  ],
  /** Read when the config manages collections or places a space. */
  read: {
    wanted: (org: DesiredTree) =>
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
                ...(dupCollections.has(c.title) || c.title === '' ? { id: c.id } : {}),
                ...(c.description !== null ? { description: c.description } : {}),
                ...(c.defaultLevel !== null ? { defaultLevel: c.defaultLevel } : {}),
                ...(c.parent && !dupCollections.has(collectionTitle(c.parent) ?? '')
                  ? { parent: collectionTitle(c.parent) }
                  : {}),
                ...defined({ access: collectionGrantKind.export(c.access) }),
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
  diff: (ctx: DiffContext, desired: DesiredTree, live: LiveTree): void => {
    if (manages(desired))
      diffTree(ctx, desired.collections, live.collections ?? [], desired.spaces ?? [], live.spaces ?? []);
    // Grants after the tree: a collection it creates is granted after its creation.
    if (desired.collections) collectionGrantKind.diff(ctx, desired.collections, live.collections ?? []);
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
  examples: {
    pairs: [
      {
        config: { title: 'Product', description: 'Product docs' },
        seed: { id: 'col_p', title: 'Product', description: 'Product docs' },
        changed: { title: 'Product', description: 'All products' },
      },
      {
        config: { title: 'APIs' },
        seed: { id: 'col_a', title: 'APIs' },
        changed: { title: 'API reference', previously: ['APIs'] },
      },
    ],
  } satisfies KindExamples<z.infer<typeof Config>>,
} satisfies KindModule<CollectionOp, 'collection'> & Record<string, unknown>;
