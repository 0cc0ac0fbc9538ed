import { z } from 'zod';

/**
 * Lenient schemas of the API's answers: unknown fields are allowed; the fields docsync uses are
 * checked. Share-link URLs are deliberately not part of any schema, so they never enter the model.
 */
export const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const Page = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    next: nullish(z.looseObject({ page: z.string() })),
    count: z.number().optional(),
  });

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
});
export type Site = z.infer<typeof Site>;

const Role = z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read']);
export const Level = z.union([Role, z.literal('inherit')]);

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

export const User = z.looseObject({ id: z.string(), email: nullish(z.string()) });
