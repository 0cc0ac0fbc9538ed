import { anyListKinds, anyObjectKinds, anySpaceFacets } from '../kinds/registry.js';
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
  ...Object.fromEntries([...anyObjectKinds, ...anyListKinds].flatMap((kind) => Object.entries(kind.docs))),
  policy: {
    title: 'safety policy',
    example: {
      prune: true,
      maxDeletes: 5,
      syncWindows: [
        { kind: 'deny', schedule: '0 22 * * *', duration: '10h', timeZone: 'Europe/Paris' },
        { kind: 'deny', schedule: '0 0 * * sat', duration: '2d', manualSync: true },
      ],
    },
  },
  'policy.syncWindows[]': {
    title: 'sync windows',
    identity: 'none: every window counts (any open deny window blocks apply)',
    notes: [
      "Argo CD's sync windows: an open `deny` window blocks the daemon's apply; when `allow` windows exist, the daemon applies only while one is open. `manualSync: true` lets a manual sync (`docsync apply`, `POST /api/orgs/{org}/sync`) through. Drift is still checked and reported while apply is blocked; the run record says `apply skipped: …`, and the status page, `/status`, `GET /api/orgs/{org}` and `docsync_org_apply_blocked` show the windows.",
    ],
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
};
