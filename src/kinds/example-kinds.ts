import { collectionKind } from './collection.js';
import type { AnyKindExamples } from './examples.js';
import { anyListKinds, anyObjectKinds, anySpaceFacets } from './registry.js';
import { siteFacets, siteListKinds } from './site-parts.js';

/**
 * Every kind's examples with where they go (issue 28): test helpers build configs, emulator seeds,
 * golden cases and random states from this list without naming a kind.
 */
export type ExampleKind = {
  kind: string;
  /** What holds its entries: the organization, or each entry of its `sites`, `collections` or `spaces` (an existing space). */
  in: 'organization' | 'sites' | 'collections' | 'spaces';
  /** Its key in the holder, in the config and in the seed alike. */
  key: string;
  /**
   * A list of entries, unique by `identity`; otherwise one value, whose seed fields are merged
   * into the holder's seed.
   */
  list?: { identity: string; creates: boolean; removes: boolean };
  examples: AnyKindExamples;
};

/** Whether its operations create (or delete or remove) an entry: the plan's operation types say. */
const does = (ops: object, ...verbs: string[]) =>
  Object.keys(ops).some((type) => verbs.some((verb) => type.startsWith(`${verb}-`)));
const listOf = (identity: string, ops: object) => ({
  identity,
  creates: does(ops, 'create'),
  removes: does(ops, 'delete', 'remove'),
});

/** In the config's order: the organization's lists and objects, its tree, then what sites and spaces hold. */
export const exampleKinds: readonly ExampleKind[] = [
  ...anyObjectKinds.map((k): ExampleKind => ({
    kind: k.kind,
    in: 'organization',
    key: k.key,
    examples: k.examples,
  })),
  ...anyListKinds.map((k): ExampleKind => ({
    kind: k.kind,
    in: 'organization',
    key: k.key,
    list: listOf(k.unique.key, k.ops),
    examples: k.examples,
  })),
  {
    kind: collectionKind.kind,
    in: 'organization',
    key: 'collections',
    list: listOf('title', collectionKind.ops),
    examples: collectionKind.examples,
  },
  {
    kind: collectionKind.spaces.kind,
    in: 'organization',
    key: 'spaces',
    list: listOf('id', collectionKind.spaces.ops),
    examples: collectionKind.spaces.examples,
  },
  {
    kind: collectionKind.grants.kind,
    in: 'collections',
    key: collectionKind.grants.key,
    examples: collectionKind.grants.examples,
  },
  ...siteListKinds.map((k): ExampleKind => ({
    kind: k.kind,
    in: 'sites',
    key: k.key,
    list: listOf(k.unique.key, k.ops),
    examples: k.examples,
  })),
  ...siteFacets.map((k): ExampleKind => ({ kind: k.kind, in: 'sites', key: k.key, examples: k.examples })),
  ...anySpaceFacets.map((k): ExampleKind => ({
    kind: k.kind,
    in: 'spaces',
    key: k.key,
    examples: k.examples,
  })),
];
