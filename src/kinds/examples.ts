/**
 * A kind's examples (issue 28): config entries with the live objects they pair with, declared in
 * the kind's own module. The golden plan cases, the property test's random states and the emulator
 * seeds of tests are built from them by code that names no kind (test/helpers/kind-examples.ts).
 * Pure data, and pure functions of a seeded generator.
 */

/** A seeded generator of numbers in [0, 1) (never Math.random: the same seed gives the same state). */
export type Random = () => number;

/** An object of the emulator's seed format (src/emulator/seed.ts; examples/emulator-seed.yaml is one). */
export type SeedEntry = Record<string, unknown>;

/**
 * One config entry and the live object it pairs with. Where each goes follows from the kind's
 * shape: a list kind's entry is an item of its key in the organization (config and seed alike), a
 * site list's an item of its key in a site, an object kind's or a facet's seed is merged into the
 * organization, the site or the space that holds it.
 */
export type ExamplePair<C, S = SeedEntry> = {
  /** What a user writes (valid against the kind's `config`). */
  config: C;
  /** The live object, as an emulator seed entry: `config` planned against it changes nothing. */
  seed: S;
  /** `config` changed: planned against `seed`, an update (never a create or a delete). */
  changed: C;
};

export type KindExamples<C, S = SeedEntry> = {
  /**
   * Pairs with different identities. A list kind declares at least two: a golden case updates the
   * first and keeps the second, another creates the first and deletes the second.
   */
  pairs: readonly [ExamplePair<C, S>, ...ExamplePair<C, S>[]];
  /**
   * What the pairs need around them: other entries of the organization's config and seed (a custom
   * field that a space's value names). Merged by identity with what is there.
   */
  needs?: { config: Record<string, unknown[]>; seed: Record<string, unknown[]> };
  /** What the policy must allow, besides `prune`, for entries to be removed (members: `pruneMembers`). */
  policy?: Record<string, boolean>;
  /** The API flavor the examples plan against (default `seed`, api.md's): `current` for what only today's API can do. */
  flavor?: 'seed' | 'current';
  /**
   * A valid config entry drawn from a seeded generator, for the property test (by default, one of
   * the pairs' `config` or `changed`); a list kind's entries are then kept unique by identity.
   */
  random?: (r: Random) => C;
  /** A live object drawn the same way, as a seed entry (by default, one of the pairs' `seed`). */
  randomSeed?: (r: Random) => S;
};

/** Any kind's examples, as generic code holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKindExamples = KindExamples<any, any>;

/** One of `items`, drawn with `r`. */
export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

/** `items` in an order drawn with `r` (Fisher–Yates). */
export function shuffle<T>(r: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
