import { z } from 'zod';

/**
 * Lenient schemas of the API's answers: unknown fields are allowed; the fields docsync uses are
 * checked. Share-link URLs are deliberately not part of any schema, so they never enter the model.
 */
const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();

const pageOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    next: nullish(z.looseObject({ page: z.string() })),
    count: z.number().optional(),
  });
const pages = new WeakMap<z.ZodType, ReturnType<typeof pageOf>>();

/** The schema of one page of a list of `item`: built (and compiled by zod) once per item schema. */
export const Page = <T extends z.ZodType>(item: T): ReturnType<typeof pageOf<T>> => {
  let page = pages.get(item);
  if (!page) pages.set(item, (page = pageOf(item)));
  return page as ReturnType<typeof pageOf<T>>;
};

export const SiteSpace = z.looseObject({
  object: z.literal('site-space').optional(),
  id: z.string(),
  path: z.string(),
  section: nullish(z.string()),
  space: z.looseObject({ id: z.string() }),
  default: nullish(z.boolean()),
  condition: nullish(z.string()),
});
export type SiteSpace = z.infer<typeof SiteSpace>;

export const SiteSection = z.looseObject({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  description: nullish(z.string()),
  default: nullish(z.boolean()),
  condition: nullish(z.string()),
  sectionGroup: nullish(z.string()),
  icon: nullish(z.string()),
  siteSpaces: z.array(SiteSpace).default([]),
});
export type SiteSection = z.infer<typeof SiteSection>;

export const SiteSectionGroup = z.looseObject({
  id: z.string(),
  title: z.string(),
  icon: nullish(z.string()),
});
export type SiteSectionGroup = z.infer<typeof SiteSectionGroup>;

export const Site = z.looseObject({
  id: z.string(),
  title: z.string(),
  visibility: z.enum(['public', 'unlisted', 'share-link', 'visitor-auth']),
  basename: nullish(z.string()),
  agentsContext: nullish(z.enum(['included', 'excluded'])),
  adaptiveContent: nullish(z.looseObject({ enabled: z.boolean() })),
  proxy: nullish(z.looseObject({ origin: z.string() })),
  published: z.boolean().optional(),
});
export type Site = z.infer<typeof Site>;

export const ShareLink = z.looseObject({
  id: z.string(),
  name: nullish(z.string()),
  active: nullish(z.boolean()),
});
export type ShareLink = z.infer<typeof ShareLink>;

export const CustomField = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  type: z.enum(['text', 'number', 'boolean', 'tags', 'select:multi', 'select:single']),
  title: nullish(z.string()),
  description: nullish(z.string()),
  placeholder: nullish(z.string()),
  options: nullish(z.array(z.string())),
});
export type CustomField = z.infer<typeof CustomField>;

export const CustomFieldValueEntry = z.looseObject({
  customField: z.looseObject({ name: z.string() }),
  value: nullish(z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
});
export const SpaceCustomFields = z.array(CustomFieldValueEntry);

export const Team = z.looseObject({ id: z.string(), title: z.string() });
export type Team = z.infer<typeof Team>;

export const TeamMember = z.looseObject({
  organization: z.looseObject({
    id: z.string(),
    user: z.looseObject({ id: z.string(), email: nullish(z.string()) }),
  }),
  team: z.looseObject({ role: z.enum(['owner', 'member']) }),
});
export type TeamMember = z.infer<typeof TeamMember>;

const Role = z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read']);
const Level = z.union([Role, z.literal('inherit')]);

export const Organization = z.looseObject({
  id: z.string(),
  title: z.string(),
  emailDomains: z.array(z.string()).default([]),
  hostname: nullish(z.string()),
  defaultRole: nullish(Role),
  defaultContent: nullish(z.looseObject({ site: z.string().optional() })),
  inviteLinks: z.boolean().default(false),
  sso: nullish(z.boolean()),
  ai: nullish(z.boolean()),
});

export const Member = z.looseObject({
  id: z.string(),
  role: nullish(Role),
  user: z.looseObject({ id: z.string(), email: nullish(z.string()) }),
});

export const User = z.looseObject({ id: z.string(), email: nullish(z.string()) });

export const Collection = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: nullish(z.string()),
  parent: nullish(z.string()),
  defaultLevel: nullish(Level),
});

export const Space = z.looseObject({
  id: z.string(),
  title: z.string(),
  emoji: nullish(z.string()),
  editMode: nullish(z.enum(['live', 'locked'])),
  defaultLevel: nullish(Level),
  parent: nullish(z.string()),
});

export const OpenApiSpec = z.looseObject({ slug: z.string(), sourceURL: nullish(z.string()) });

export const SamlProvider = z.looseObject({
  id: z.string(),
  label: z.string(),
  entityID: nullish(z.string()),
  ssoURL: nullish(z.string()),
  certificate: nullish(z.string()),
  defaultTeam: nullish(z.looseObject({ id: z.string() })),
  defaultRole: nullish(Role),
});

export const TranslationSettings = z.looseObject({ id: z.string(), title: z.string() });

/** Today's `Translation` (current flavor): a source space translated into a language. */
export const Translation = z.looseObject({
  id: z.string(),
  source: z.looseObject({ space: z.string(), language: z.string() }),
  language: z.string(),
});

export const AdaptiveSchema = z.looseObject({ jsonSchema: z.record(z.string(), z.unknown()) });
