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
