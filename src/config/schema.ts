import { z } from 'zod';
import type { listKinds } from '../kinds/registry.js';
import {
  anyListKinds,
  collectionKind,
  objectKinds,
  siteFacets,
  siteListKinds,
  spaceFacets,
} from '../kinds/registry.js';
import type { AnyListKind } from '../kinds/types.js';
import { pin, previously } from '../kinds/fields.js';
import { agentsContexts, visibilities } from '../model/kinds.js';

/**
 * The docsync configuration format, version 1: one schema, strict (unknown keys are errors).
 * The JSON Schema in `schema/docsync.schema.json` is generated from it (`npm run schema`).
 * Limits are api.md's.
 */
export const proxyPattern = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const Icon = z.string().min(1).max(50).describe('Icon name, at most 50 characters.');
const Condition = z.string().min(1).max(1024).describe('Visitor condition expression, 1 to 1024 characters.');
const Path = z.string().min(1).max(100).describe('URL path segment, 1 to 100 characters.');
export const PolicySchema = z
  .strictObject({
    prune: z
      .boolean()
      .optional()
      .describe('Delete live resources of managed kinds that the config omits. Default false.'),
    maxDeletes: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('A plan with more deletions is refused unless --allow-deletes N. Default 10.'),
  })
  .describe(
    'Safety policy for this organization. Omitted: prune false and maxDeletes 10 (the defaults of its keys).',
  );

export const SiteSpaceSchema = z.strictObject({
  space: z.string().min(1).describe('Id of the space; identity of the site space within its site.'),
  path: Path.optional().describe(
    'Optional, 1 to 100 characters. Omitted: the platform names it after the space on creation; unmanaged afterwards.',
  ),
  condition: Condition.nullable().optional().describe('Optional; null removes it. Omitted: unmanaged.'),
  default: z
    .boolean()
    .optional()
    .describe('Default site space of its section (or of the site root). Omitted: unmanaged.'),
});

export const SectionSchema = z.strictObject({
  path: Path.describe('Identity of the section within its site.'),
  title: z
    .string()
    .min(2)
    .max(128)
    .optional()
    .describe(
      "Optional, 2 to 128 characters. Omitted: the platform names a new section after its first space's title, and docsync leaves the title alone afterwards.",
    ),
  icon: Icon.nullable().optional().describe('Optional; null removes it. Omitted: unmanaged.'),
  description: z
    .string()
    .max(256)
    .nullable()
    .optional()
    .describe('Optional, at most 256 characters; null removes it. Omitted: unmanaged.'),
  condition: Condition.nullable().optional().describe('Optional; null removes it. Omitted: unmanaged.'),
  default: z.boolean().optional().describe('Default section of the site (at most one). Omitted: unmanaged.'),
  spaces: z.array(SiteSpaceSchema).describe('Site spaces of this section, in display order (at least one).'),
});

export const SectionGroupSchema = z.strictObject({
  title: z.string().min(1).max(100).describe('Identity of the group within its site (unless id is pinned).'),
  id: pin('title'),
  previously: previously('title'),
  icon: Icon.nullable().optional(),
  sections: z
    .array(Path)
    .optional()
    .describe(
      'Paths of the sections in this group (a section belongs to one group: listing it here moves it from another). Omitted: the group is created empty and its memberships are unmanaged (sections join or leave it outside docsync).',
    ),
});

export const SiteSchema = z.strictObject({
  title: z
    .string()
    .min(2)
    .max(128)
    .describe(
      'Required: the identity of the site (unless id is pinned), 2 to 128 characters. The API could create a site without one, but docsync would have nothing to pair it by.',
    ),
  id: pin('title'),
  previously: previously('title'),
  visibility: z
    .enum(visibilities)
    .optional()
    .describe("Optional. Omitted: the platform's default on creation, unmanaged afterwards."),
  basename: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Optional, 1 to 100 characters. Omitted: unmanaged (set after creation when given).'),
  agentsContext: z
    .enum(agentsContexts)
    .optional()
    .describe('Optional (api.md only; ignored with --api-flavor current). Omitted: unmanaged.'),
  adaptiveContent: z
    .strictObject({ enabled: z.boolean() })
    .optional()
    .describe('Optional. Omitted: unmanaged.'),
  proxy: z.string().max(512).regex(proxyPattern, 'must look like company.com/docs').nullable().optional(),
  ...siteFacetsShape(),
  ...siteListKindsShape(),
  sections: z.array(SectionSchema).optional().describe('Sections in display order.'),
  sectionGroups: z
    .array(SectionGroupSchema)
    .optional()
    .describe("Optional. Omitted: groups and sections' memberships are not read or changed."),
  spaces: z.array(SiteSpaceSchema).optional().describe('Root site spaces, for a site without sections.'),
});

export const ConfigFileSchema = z
  .strictObject({
    organization: z.string().min(1).describe('The organization id.'),
    policy: PolicySchema.optional(),
    ...objectKindsShape(),
    ...listKindsShape((k) => k.configBefore === 'collections'),
    collections: z.array(collectionKind.config).optional(),
    ...listKindsShape((k) => k.configBefore === undefined),
    spaces: z.array(collectionKind.spaces.config.extend(spaceFacetsShape())).optional(),
    ...listKindsShape((k) => k.configBefore === 'sites'),
    sites: z.array(SiteSchema).optional(),
  })
  .describe('A docsync configuration file (format v1): the desired state of one organization.');

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

type ListKindsShape = {
  [K in (typeof listKinds)[number] as K['key']]: z.ZodOptional<z.ZodArray<K['config']>>;
};

type ObjectKindsShape = {
  [K in (typeof objectKinds)[number] as K['key']]: z.ZodOptional<K['config']>;
};

/** The keys of the object kinds (the organization's settings). */
function objectKindsShape(): ObjectKindsShape {
  return Object.fromEntries(objectKinds.map((k) => [k.key, k.config.optional()])) as ObjectKindsShape;
}

type SpaceFacetsShape = {
  [K in (typeof spaceFacets)[number] as K['key']]: z.ZodOptional<K['config']>;
};

/** The keys of a space's facets (its custom field values). */
function spaceFacetsShape(): SpaceFacetsShape {
  return Object.fromEntries(
    spaceFacets.map((k) => [k.key, k.config.optional().describe(k.describe)]),
  ) as SpaceFacetsShape;
}

type SiteFacetsShape = {
  [K in (typeof siteFacets)[number] as K['key']]: z.ZodOptional<K['config']>;
};

/** The keys of a site's facets (its adaptive schema). */
function siteFacetsShape(): SiteFacetsShape {
  return Object.fromEntries(
    siteFacets.map((k) => [k.key, k.config.optional().describe(k.describe)]),
  ) as SiteFacetsShape;
}

type SiteListKindsShape = {
  [K in (typeof siteListKinds)[number] as K['key']]: z.ZodOptional<z.ZodArray<K['config']>>;
};

/** The keys of the site list kinds, each an optional list of its module's config entry. */
function siteListKindsShape(): SiteListKindsShape {
  return Object.fromEntries(
    siteListKinds.map((k) => [k.key, z.array(k.config).optional().describe(k.describe)]),
  ) as SiteListKindsShape;
}

/** The keys of the list kinds, each an optional list of its module's config entry. */
function listKindsShape(which: (kind: AnyListKind) => boolean): ListKindsShape {
  return Object.fromEntries(
    anyListKinds.filter(which).map((k) => {
      const list = z.array(k.config).optional();
      return [k.key, k.describe ? list.describe(k.describe) : list];
    }),
  ) as ListKindsShape;
}
