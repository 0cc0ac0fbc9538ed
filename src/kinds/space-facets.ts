import { spaceCustomFieldsKind } from './space-custom-fields.js';
import { spaceGrantKind } from './space-grant.js';
import type { Optional } from './shapes.js';
import type { AnySpaceFacet } from './value-shapes.js';

/** The kinds that are facets of an existing space (a key of its entry), in the registry's order. */
export const spaceFacets = [spaceCustomFieldsKind, spaceGrantKind] as const;

type SpaceFacets = (typeof spaceFacets)[number];
/** The desired and live space's facets. */
export type SpaceFacetValues = Optional<SpaceFacets, 'D'>;

export const anySpaceFacets: readonly AnySpaceFacet[] = spaceFacets;
