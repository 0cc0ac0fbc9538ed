import { stringify } from 'yaml';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import { exampleKinds, type ExampleKind } from '../../src/kinds/example-kinds.js';
import { absentKinds, readOnlyKinds } from '../../src/kinds/registry.js';
import { pick, shuffle, type ExamplePair, type Random } from '../../src/kinds/examples.js';
import type { DesiredOrganization } from '../../src/reconcile/index.js';

/**
 * Configs and emulator seeds built from the kinds' examples (src/kinds/example-kinds.ts): the
 * golden cases of each kind, the property test's random states. Names no kind: where an entry goes
 * is the registry's.
 */
export type Obj = Record<string, unknown>;
type Flavor = 'seed' | 'current';

/** The config's entry and the seed's object that hold a site's or a space's examples. */
const HOST = {
  sites: { config: { title: 'Docs' }, seed: { id: 'site_1', title: 'Docs', visibility: 'public' } },
  spaces: { config: { id: 'space_1' }, seed: { id: 'space_1', title: 'Space 1' } },
  collections: { config: { title: 'Guides' }, seed: { id: 'col_g', title: 'Guides' } },
};

const listOf = (holder: Obj, key: string): unknown[] => {
  if (!Array.isArray(holder[key])) holder[key] = [];
  return holder[key] as unknown[];
};

/** The entry of `list` with the same `id` (or the same value of `identity`), if any. */
function sameEntry(list: unknown[], entry: Obj, identity: string): Obj | undefined {
  const key = 'id' in entry ? 'id' : identity;
  return list.find((x) => (x as Obj)[key] !== undefined && (x as Obj)[key] === entry[key]) as Obj | undefined;
}

/** Merge seed fields into a holder: nested objects (an organization's `settings`) key by key. */
function mergeFields(into: Obj, fields: Obj): void {
  for (const [key, value] of Object.entries(fields))
    into[key] =
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      into[key] &&
      typeof into[key] === 'object'
        ? { ...(into[key] as Obj), ...(value as Obj) }
        : value;
}

/** The holder of a kind's entries in an organization's config or seed (the host site or space, added if missing). */
function holderOf(org: Obj, ek: ExampleKind, side: 'config' | 'seed'): Obj {
  if (ek.in === 'organization') return org;
  const host = HOST[ek.in][side];
  const list = listOf(org, ek.in);
  const byTitle = side === 'config' && (ek.in === 'sites' || ek.in === 'collections');
  const found = sameEntry(list, host, byTitle ? 'title' : 'id');
  if (found) return found;
  const added = structuredClone(host) as Obj;
  list.push(added);
  return added;
}

/** Put config entries (a list kind) or a value into the organization's config. */
export function placeConfig(org: Obj, ek: ExampleKind, entries: unknown[]): void {
  const holder = holderOf(org, ek, 'config');
  // Copies: holders placed here receive other kinds' entries, and the kinds' examples stay as declared.
  holder[ek.key] = structuredClone(ek.list ? entries : entries[0]);
}

/** Put seed entries into the organization's seed: a list's merged by id into what is there, a value's fields merged into its holder. */
export function placeSeed(org: Obj, ek: ExampleKind, seeds: Obj[], holder = holderOf(org, ek, 'seed')): void {
  if (!ek.list) {
    for (const s of seeds) mergeFields(holder, s);
    return;
  }
  const list = listOf(holder, ek.key);
  for (const s of seeds) {
    const found = sameEntry(list, s, ek.list.identity);
    if (found) Object.assign(found, structuredClone(s));
    else list.push(structuredClone(s));
  }
}

/** What a kind's examples need around them (declared fields), merged by identity with what is there. */
function placeNeeds(org: Obj, ek: ExampleKind, side: 'config' | 'seed'): void {
  for (const [key, entries] of Object.entries(ek.examples.needs?.[side] ?? {})) {
    const identity =
      exampleKinds.find((k) => k.in === 'organization' && k.key === key)?.list?.identity ?? 'id';
    const list = listOf(org, key);
    for (const e of entries as Obj[]) if (!sameEntry(list, e, identity)) list.push(structuredClone(e));
  }
}

/** The kinds whose examples plan against `flavor`: present and writable there, and not meant for another. */
export function kindsFor(flavor: Flavor): ExampleKind[] {
  const absent = absentKinds(flavor);
  const readOnly = readOnlyKinds(flavor);
  return exampleKinds.filter(
    (ek) =>
      !absent.has(ek.kind as never) &&
      !readOnly.has(ek.kind as never) &&
      (ek.examples.flavor ?? flavor) === flavor,
  );
}

export type ExampleCase = { config: Obj; seed: Obj; flavor: Flavor };

export type Variant = 'unchanged' | 'update' | 'replace';

/**
 * A kind's examples planned one way: `unchanged`, every pair as it is (no change); `update`, the
 * first pair changed and the others as they are (one update, nothing else); `replace`, with
 * prune, the first pair's entry created (where the kind creates) and the others deleted (where it
 * deletes). `base` gives the organization's config and seed.
 */
export function exampleCase(
  ek: ExampleKind,
  variant: Variant,
  base: () => { config: Obj; seed: Obj },
): ExampleCase {
  const pairs: readonly ExamplePair<unknown, Obj>[] = ek.examples.pairs;
  const [first, ...rest] = pairs;
  const b = base();
  const org = (b.seed['organizations'] as Obj[])[0]!;
  if (variant === 'replace') b.config['policy'] = { prune: true, ...ek.examples.policy };
  placeNeeds(b.config, ek, 'config');
  placeNeeds(org, ek, 'seed');
  placeConfig(
    b.config,
    ek,
    variant === 'unchanged'
      ? pairs.map((p) => p.config)
      : variant === 'update'
        ? [first!.changed, ...rest.map((p) => p.config)]
        : [first!.config],
  );
  placeSeed(
    org,
    ek,
    (variant === 'replace' && ek.list?.creates ? rest : pairs).map((p) => p.seed),
  );
  return { config: b.config, seed: b.seed, flavor: ek.examples.flavor ?? 'seed' };
}

/** The golden cases of every kind: `update`, and a list kind's `replace` where it creates or deletes. */
export function exampleCases(base: () => { config: Obj; seed: Obj }): Record<string, ExampleCase> {
  const cases: Record<string, ExampleCase> = {};
  for (const ek of exampleKinds) {
    cases[`kind-${ek.kind}-update`] = exampleCase(ek, 'update', base);
    if (ek.list && (ek.list.creates || ek.list.removes))
      cases[`kind-${ek.kind}-replace`] = exampleCase(ek, 'replace', base);
  }
  return cases;
}

/** The desired organization of a config object (loaded and checked as a user's file is). */
export function desiredOf(config: Obj): DesiredOrganization {
  const loaded = loadConfigFromBuffers([{ file: 'random.yaml', bytes: Buffer.from(stringify(config)) }], {});
  if (!loaded.desired)
    throw new Error(`invalid config: ${JSON.stringify(loaded.issues)}\n${stringify(config)}`);
  return loaded.desired.organizations[0]!;
}

const identityOf = (ek: ExampleKind, entry: unknown): unknown[] => {
  const e = entry as Obj;
  return [e[ek.list!.identity], ...((e['previously'] as unknown[] | undefined) ?? [])];
};

/** A kind's entries for a random config: some pairs (as they are or changed), then random ones with other identities. */
function randomEntries(r: Random, ek: ExampleKind): unknown[] {
  const pairs = ek.examples.pairs as readonly ExamplePair<unknown, Obj>[];
  const entries = shuffle(r, pairs)
    .slice(0, Math.floor(r() * (pairs.length + 1)))
    .map((p) => (r() < 0.5 ? p.config : p.changed));
  const random = ek.examples.random;
  if (!ek.list) return [random && r() < 0.5 ? random(r) : pick(r, pairs)[r() < 0.5 ? 'config' : 'changed']];
  if (random)
    for (let n = 1 + Math.floor(r() * 2); n > 0; n -= 1) {
      const entry = random(r);
      const taken = new Set(entries.flatMap((e) => identityOf(ek, e)));
      if (!identityOf(ek, entry).some((id) => taken.has(id))) entries.push(entry);
    }
  return entries;
}

/** A kind's live objects for a random seed: some pairs' seeds, then random ones. */
function randomSeeds(r: Random, ek: ExampleKind): Obj[] {
  const pairs = ek.examples.pairs as readonly ExamplePair<unknown, Obj>[];
  if (!ek.list) return r() < 0.6 ? [pick(r, pairs).seed] : [];
  const seeds = shuffle(r, pairs)
    .slice(0, Math.floor(r() * (pairs.length + 1)))
    .map((p) => p.seed);
  const random = ek.examples.randomSeed;
  if (random) for (let n = Math.floor(r() * 3); n > 0; n -= 1) seeds.push(random(r));
  return seeds;
}

/** A random config of organization `org_t`: each kind present or not, over names its random seed shares. */
export function randomConfig(r: Random, flavor: Flavor = 'seed'): Obj {
  const config: Obj = { organization: 'org_t', policy: { prune: r() < 0.6, maxDeletes: 1000 } };
  const kinds = kindsFor(flavor);
  for (const ek of kinds.filter((k) => k.in === 'organization'))
    if (r() < 0.6) {
      placeConfig(config, ek, randomEntries(r, ek));
      placeNeeds(config, ek, 'config');
    }
  for (const ek of kinds.filter((k) => k.in !== 'organization'))
    for (const holder of (config[ek.in] as Obj[] | undefined) ?? [])
      if (r() < 0.7) {
        const entries = randomEntries(r, ek);
        holder[ek.key] = structuredClone(ek.list ? entries : entries[0]);
        placeNeeds(config, ek, 'config');
      }
  return config;
}

/** The desired organization of `randomConfig`. */
export function randomDesired(r: Random, flavor: Flavor = 'seed'): DesiredOrganization {
  return desiredOf(randomConfig(r, flavor));
}

/** A random live organization `org_t`, as an emulator seed, over the names `randomConfig` uses (so pairs collide). */
export function randomLiveSeed(r: Random): Obj {
  const org: Obj = {
    id: 'org_t',
    members: [
      { id: 'user_a', email: 'a@example.com', role: 'admin' },
      ...['b', 'c', 'd'].map((u) => ({ id: `user_${u}`, email: `${u}@example.com`, role: 'read' })),
    ],
    spaces: Array.from({ length: 12 }, (_, i) => ({ id: `space_${i + 1}`, title: `Title space_${i + 1}` })),
  };
  for (const ek of exampleKinds.filter((k) => k.in === 'organization')) {
    const seeds = randomSeeds(r, ek);
    if (seeds.length > 0) placeNeeds(org, ek, 'seed');
    placeSeed(org, ek, seeds, org);
  }
  for (const ek of exampleKinds.filter((k) => k.in !== 'organization'))
    for (const holder of (org[ek.in] as Obj[] | undefined) ?? []) {
      const seeds = randomSeeds(r, ek);
      if (seeds.length > 0) placeNeeds(org, ek, 'seed');
      placeSeed(org, ek, seeds, holder);
    }
  return { tokenUser: 'user_a', organizations: [org] };
}
