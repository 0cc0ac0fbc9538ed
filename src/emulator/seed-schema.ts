import { z } from 'zod';

/**
 * The seed: what the API itself cannot create (organizations, members, spaces, collections) and,
 * optionally, everything else in shapes close to the API's own. Unknown keys are allowed.
 */
const member = z.looseObject({
  id: z.string(),
  email: z.string(),
  displayName: z.string().optional(),
  role: z.string().nullable().optional(),
});
const siteSpace = z.looseObject({
  id: z.string().optional(),
  space: z.string(),
  path: z.string().optional(),
  condition: z.string().nullable().optional(),
  default: z.boolean().optional(),
  draft: z.boolean().optional(),
  hidden: z.boolean().optional(),
  pageId: z.string().nullable().optional(),
  /** Today's API: the keys it overrides in the site's customization. */
  customization: z.record(z.string(), z.unknown()).optional(),
});
/** Today's API: localized texts by language. */
const localizedText = z.record(z.string(), z.string()).optional();
const section = z.looseObject({
  id: z.string().optional(),
  title: z.string(),
  path: z.string().optional(),
  icon: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  condition: z.string().nullable().optional(),
  default: z.boolean().optional(),
  sectionGroup: z.string().optional(),
  draft: z.boolean().optional(),
  localizedTitle: localizedText,
  localizedDescription: localizedText,
  siteSpaces: z.array(siteSpace).default([]),
});
const site = z.looseObject({
  id: z.string().optional(),
  title: z.string(),
  visibility: z.string().default('public'),
  published: z.boolean().default(false),
  basename: z.string().nullable().optional(),
  agentsContext: z.enum(['included', 'excluded']).default('included'),
  adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
  proxy: z.string().nullable().optional(),
  defaultLevel: z.string().nullable().optional(),
  sections: z.array(section).default([]),
  sectionGroups: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        title: z.string(),
        icon: z.string().nullable().optional(),
        draft: z.boolean().optional(),
        localizedTitle: localizedText,
        /** Today's API: the group it is nested in (its id or title). */
        parent: z.string().optional(),
      }),
    )
    .default([]),
  siteSpaces: z.array(siteSpace).default([]),
});
export const SeedOrganization = z.looseObject({
  id: z.string(),
  title: z.string().default('Organization'),
  emailDomains: z.array(z.string()).default([]),
  hostname: z.string().nullable().optional(),
  defaultRole: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
  members: z.array(member).default([]),
  collections: z
    .array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        description: z.string().optional(),
        parent: z.string().nullable().optional(),
      }),
    )
    .default([]),
  spaces: z
    .array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        emoji: z.string().optional(),
        visibility: z.string().optional(),
        parent: z.string().nullable().optional(),
        // Not z.record: it drops a key named __proto__, which the API may well hold.
        customFields: z
          .custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
          .optional(),
      }),
    )
    .default([]),
  teams: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        title: z.string(),
        members: z
          .array(
            z.union([
              z.string(),
              z.looseObject({ user: z.string(), role: z.enum(['owner', 'member']).default('member') }),
            ]),
          )
          .default([]),
      }),
    )
    .default([]),
  customFields: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        name: z.string(),
        type: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
        placeholder: z.string().optional(),
        options: z.array(z.string()).optional(),
      }),
    )
    .default([]),
  sites: z.array(site).default([]),
  defaultContent: z.string().nullable().optional(),
  openapi: z
    .array(
      z.looseObject({
        slug: z.string(),
        source: z.union([z.string(), z.strictObject({ text: z.string() })]),
        visibility: z.enum(['private', 'public']).optional(),
      }),
    )
    .default([]),
  saml: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        label: z.string(),
        entityID: z.string().optional(),
        ssoURL: z.string().optional(),
        certificate: z.string().optional(),
        defaultTeam: z.string().optional(),
        defaultRole: z.string().nullable().optional(),
      }),
    )
    .default([]),
  translations: z
    .array(
      z.union([
        z.looseObject({ id: z.string().optional(), title: z.string() }),
        z.looseObject({
          id: z.string().optional(),
          source: z.object({ space: z.string(), language: z.string() }),
          language: z.string(),
          instructions: z.record(z.string(), z.unknown()).nullable().optional(),
        }),
      ]),
    )
    .default([]),
  settings: z
    .looseObject({
      inviteLinks: z.boolean().optional(),
      sso: z.boolean().optional(),
      ai: z.boolean().optional(),
    })
    .optional(),
});
export const Seed = z.looseObject({
  organizations: z.array(SeedOrganization).default([]),
  tokenUser: z.string().nullable().optional(),
});
export type Seed = z.infer<typeof Seed>;
export type SeedOrganization = z.infer<typeof SeedOrganization>;
export type SeedSite = z.infer<typeof site>;
export type SeedSiteSpace = z.infer<typeof siteSpace>;
