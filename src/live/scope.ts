import {
  anyListKinds,
  anyObjectKinds,
  anySpaceFacets,
  collectionKind,
  listIn,
  valueIn,
} from '../kinds/registry.js';
import { holdsGrants } from '../kinds/grants.js';
import { referenceTargets } from '../plan/references.js';
import type { DesiredOrganization } from '../reconcile/index.js';

/** What to read of one organization: the config's scope, or everything (export). */
export type ReadScope = {
  /** Keys of the object kinds (the organization's settings) to read. */
  objects: string[];
  collections: boolean;
  /** Keys of the list kinds (src/kinds/registry.ts) to read. */
  lists: string[];
  /** Spaces whose own fields (title, emoji, parent…) are managed: one GET each. */
  spaceDetails: string[];
  /** Spaces whose facets (custom field values) are managed: one GET each per facet. */
  spaceIds: string[];
  /** Read the user the token belongs to (a kind that must never remove its access is managed). */
  self?: boolean;
  /** The config the scope comes from (undefined for export: read everything below the lists too). */
  desired?: DesiredOrganization;
  /**
   * More list kinds to read, found by a walk over every entry of the config (the kinds its
   * references name without managing them): worked out once the first request is written, while
   * it is on its way, not before it (`HttpClient.written`).
   */
  named?: () => string[];
};

/** The scope a config implies: only the kinds it manages, only the sites and teams it describes. */
export function scopeOf(org: DesiredOrganization): ReadScope {
  const { named, ...scope } = scopeInSteps(org);
  return { ...scope, lists: [...scope.lists, ...named()] };
}

/**
 * `scopeOf`, the kinds the config names by reference left to `named`: what the config manages is
 * known at once, what its references name takes a walk over every entry (a site's every site
 * space), a tenth of a second of a large config's cold start.
 */
export function scopeInSteps(org: DesiredOrganization): ReadScope & { named: () => string[] } {
  const lists = anyListKinds.filter((k) => listIn(org, k.key) !== undefined).map((k) => k.key);
  return {
    objects: anyObjectKinds.filter((k) => valueIn(org, k.key) !== undefined).map((k) => k.key),
    collections: collectionKind.read.wanted(org),
    lists,
    self: needsSelf(org),
    spaceDetails: (org.spaces ?? []).filter(collectionKind.spaces.managesFields).map((s) => s.id),
    spaceIds: (org.spaces ?? [])
      .filter((s) => anySpaceFacets.some((f) => listIn(s, f.key) !== undefined))
      .map((s) => s.id),
    desired: org,
    named: () => {
      // A kind the config names by title but does not manage (a SAML default team) is read too
      // (only its list): the diff needs the ids.
      const { named, needed } = referenceTargets(org);
      return anyListKinds
        .filter(
          (k) =>
            !lists.includes(k.key) &&
            ((k.lookup?.readWhenNamed === true && named.has(k.lookup.target)) ||
              (k.lookup !== undefined && needed.has(k.lookup.target))),
        )
        .map((k) => k.key);
    },
  };
}

/** Whether a facet that must never remove the token's own access is managed (grants). */
function needsSelf(org: DesiredOrganization): boolean {
  return holdsGrants(org);
}

/** The scope of `docsync export`: every kind, every site and team. */
export const everything = (spaceIds: string[] = []): ReadScope => ({
  objects: anyObjectKinds.map((k) => k.key),
  collections: true,
  lists: anyListKinds.map((k) => k.key),
  spaceDetails: spaceIds,
  spaceIds,
});
