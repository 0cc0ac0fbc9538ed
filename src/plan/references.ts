import {
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  lookups,
  valueIn,
} from '../kinds/registry.js';
import type { EntryReference, Lookup } from '../kinds/types.js';
import type { AnyListKind } from '../kinds/shapes.js';
import { didYouMean } from '../model/did-you-mean.js';
import type { DesiredOrganization, LiveOrganization } from '../reconcile/index.js';
import { ProvenNames } from './live-names.js';

/**
 * Plan-time resolution (issue 27): every value of the config that names a live object is checked
 * against the live state the plan read, or what the same plan creates, so that a reference nothing
 * answers is a plan error, never a call that fails half-way through an apply. The kinds declare
 * their references and lookups (src/kinds/types.ts); this is the generic, pure part. The pipeline
 * reads what is needed (src/pipeline/resolve.ts) and passes it in as `Known`.
 */

/** One reference of the config; `path` is inside the normalized organization. */
export type ConfigReference = EntryReference;

/** The names each target answers to, as read: target → names (undefined: not read, nothing to judge). */
export type Known = Map<string, { names: string[] }>;

export type UnresolvedReference = ConfigReference & { message: string };

/**
 * The targets the organization's references name (what the live read's scope needs), and those
 * whose list must be read for the ids (`read`): without building each reference's located copy,
 * which a large config has one of per site space.
 */
export function referenceTargets(org: DesiredOrganization): { named: Set<string>; needed: Set<string> } {
  const named = new Set<string>();
  // A kind whose diff needs the ids of what it names (a grant's member by e-mail): that list too.
  const needed = new Set<string>();
  const add = (r: Pick<ConfigReference, 'target' | 'read'>) => {
    named.add(r.target);
    if (r.read) needed.add(r.target);
  };
  for (const kind of anyListKinds) {
    const targets = kind.referenceTargets ?? kind.references;
    if (!targets) continue;
    for (const entry of listIn(org, kind.key) ?? []) for (const r of targets(entry, org as never)) add(r);
  }
  for (const kind of anyObjectKinds) {
    const value = valueIn(org, kind.key);
    if (value === undefined || !kind.references) continue;
    for (const r of kind.references(value)) add(r);
  }
  for (const r of collectionKind.references(org)) add(r);
  for (const space of org.spaces ?? [])
    for (const facet of anySpaceFacets) {
      const value = valueIn(space, facet.key);
      if (value === undefined || !facet.references) continue;
      for (const r of facet.references(value, space.id, org as never)) add(r);
    }
  return { named, needed };
}

/**
 * Every reference of one organization, in config order; with `keep`, only those it keeps, each
 * located (its path from the organization) only when kept: a config of 100k site spaces names
 * 100k spaces that the live read almost all proves (decision 42).
 */
export function referencesOf(
  org: DesiredOrganization,
  keep: (target: string, id: string) => boolean = () => true,
  /**
   * By list kind, each entry's references kept ahead with a `keep` that kept at least what this
   * one keeps (`LiveProof`'s): filtered again, not walked again; an entry without is walked.
   */
  ahead?: ReadonlyMap<string, readonly (readonly ConfigReference[] | undefined)[]>,
): ConfigReference[] {
  const out: ConfigReference[] = [];
  for (const kind of anyListKinds) {
    if (!kind.references) continue;
    const kept = ahead?.get(kind.key);
    listIn(org, kind.key)?.forEach((entry, i) => {
      const mine = kept?.[i];
      if (mine === undefined) entryReferences(out, kind.key, kind.references!, entry, i, org, keep);
      else for (const r of mine) if (keep(r.target, r.id)) out.push(r);
    });
  }
  for (const kind of anyObjectKinds) {
    const value = valueIn(org, kind.key);
    if (value === undefined || !kind.references) continue;
    for (const r of kind.references(value))
      if (keep(r.target, r.id)) out.push({ ...r, path: [kind.key, ...r.path] });
  }
  for (const r of collectionKind.references(org)) if (keep(r.target, r.id)) out.push(r);
  org.spaces?.forEach((space, i) => {
    for (const facet of anySpaceFacets) {
      const value = valueIn(space, facet.key);
      if (value === undefined || !facet.references) continue;
      for (const r of facet.references(value, space.id, org as never))
        if (keep(r.target, r.id)) out.push({ ...r, path: ['spaces', i, facet.key, ...r.path] });
    }
  });
  return out;
}

/** The references of a list kind's entry (the `i`th of its list) that `keep` keeps, located. */
export function entryReferences(
  out: ConfigReference[],
  key: string,
  references: NonNullable<AnyListKind['references']>,
  entry: unknown,
  i: number,
  org: DesiredOrganization,
  keep: (target: string, id: string) => boolean,
): void {
  // `.call`: TurboFan does not bet on one kind's function here, so the next kind's does not deoptimize it (issue 33).
  for (const r of references.call(undefined, entry as never, org as never, keep))
    if (keep(r.target, r.id)) out.push({ ...r, path: [key, i, ...r.path] });
}

/** Every reference, kept for the end to judge against the whole live state. */
export const keepAll = (): boolean => true;

/**
 * What the live read already proves exists, by target (lower case where names compare without
 * case): each target's set made when first read (`ProvenNames`).
 */
export function provenByLive(live: LiveOrganization): Map<string, Set<string>> {
  return new ProvenNames(live);
}

/** The lookups by target (asked once per name of every live entry: a map, not a search). */
let lookupByTarget: Map<string, Lookup> | undefined;

export const lookupOf = (target: string): Lookup | undefined =>
  (lookupByTarget ??= new Map(lookups.map((l) => [l.lookup.target, l.lookup] as const).reverse())).get(
    target,
  );

const normal = (lookup: Lookup | undefined, name: string) => (lookup?.caseless ? name.toLowerCase() : name);

/** The references that nothing in `known` answers, each with a message that names the way out. */
export function unresolvedReferences(
  org: string,
  refs: readonly ConfigReference[],
  known: Known,
): UnresolvedReference[] {
  const out: UnresolvedReference[] = [];
  for (const r of refs) {
    const lookup = lookupOf(r.target);
    const found = known.get(r.target);
    if (!lookup || !found) continue;
    if (found.names.some((n) => normal(lookup, n) === normal(lookup, r.id))) continue;
    const hint = didYouMean(r.id, found.names);
    const show = (name: string) => (lookup.quoted ? `"${name}"` : name);
    out.push({
      ...r,
      message: `${r.holder}: ${lookup.noun} ${show(r.id)} does not exist in ${org}${hint ? `; did you mean ${show(hint)}?` : ''}`,
    });
  }
  return out;
}
