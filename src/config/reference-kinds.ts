import {
  anySiteFacets,
  anyListKinds,
  anyObjectKinds,
  anySiteListKinds,
  anySpaceFacets,
} from '../kinds/registry.js';
import type { KindDoc } from '../kinds/types.js';

/**
 * What the configuration reference (docs/configuration.md) says about each kind beyond its keys:
 * how docsync pairs an entry with a live resource (identity), notes, and a short example. Keyed
 * by the kind's place in the config (`sites[].sections[]`), not by where its zod schema lives;
 * the keys, types, limits and descriptions come from the zod schema (through its JSON Schema).
 * A test checks that every kind of the schema has an entry here and every example is valid.
 */
export type { KindDoc } from '../kinds/types.js';

export const KIND_DOCS: Record<string, KindDoc> = {
  ...Object.fromEntries(
    [...anyObjectKinds, ...anyListKinds, ...anySiteFacets, ...anySiteListKinds].flatMap((kind) =>
      Object.entries(kind.docs),
    ),
  ),
  policy: {
    title: 'safety policy',
    example: { prune: true, maxDeletes: 5 },
  },
  'collections[]': {
    title: 'collections',
    identity: '`title`',
    example: [{ title: 'Product' }, { title: 'APIs', parent: 'Product', defaultLevel: 'read' }],
  },
  'spaces[]': {
    title: 'existing spaces',
    identity: '`id` (docsync never creates or deletes spaces)',
    // A space's facets (its custom field values) say what they need.
    notes: anySpaceFacets.map((facet) => facet.doc.note),
    example: [
      {
        id: 'space_api',
        title: 'API Reference',
        ...Object.fromEntries(anySpaceFacets.map((facet) => [facet.key, facet.doc.example])),
      },
    ],
  },
  'sites[]': {
    title: 'sites',
    identity: '`title`',
    example: [
      {
        title: 'Developer Docs',
        visibility: 'public',
        shareLinks: [{ name: 'partner-preview' }],
        sections: [{ path: 'api', title: 'API Reference', spaces: [{ space: 'space_api', default: true }] }],
      },
    ],
  },
  'sites[].adaptiveContent': { title: 'adaptive content' },
  'sites[].sections[]': {
    title: 'sections',
    identity: '`path` within the site',
    notes: [
      'The API creates a section from a space, so a section has at least one site space. A section whose path changes keeps its site spaces: docsync pairs it with the live section that holds its spaces. Two sections may exchange paths; the plan goes through a temporary path.',
    ],
  },
  'sites[].sections[].spaces[]': {
    title: 'site spaces of a section',
    identity: '`space` within the site (a space appears once per site)',
    notes: ['`path` is unique within its section; at most one site space per section is `default`.'],
  },
  'sites[].sectionGroups[]': {
    title: 'section groups',
    identity: '`title` within the site',
    notes: ['Each of `sections` must be a section of this site, in one group at most.'],
  },
  'sites[].spaces[]': {
    title: 'root site spaces',
    identity: '`space` within the site',
    notes: ['For a site without sections (a site has sections or root site spaces, not both).'],
  },
};
