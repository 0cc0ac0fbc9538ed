import { z } from 'zod';
import { agentsContexts, customFieldTypes, teamRoles, visibilities } from '../model/kinds.js';

/**
 * The docsync configuration format, version 1: one schema, strict (unknown keys are errors).
 * The JSON Schema in `schema/docsync.schema.json` is generated from it (`npm run schema`).
 * Limits are api.md's.
 */
export const proxyPattern = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
export const customFieldNamePattern = /^[a-z_\-0-9]+$/;

const Icon = z.string().min(1).max(50).describe('Icon name, at most 50 characters.');
const Condition = z.string().min(1).max(1024).describe('Visitor condition expression, 1 to 1024 characters.');
const Path = z.string().min(1).max(100).describe('URL path segment, 1 to 100 characters.');
const CustomFieldName = z
  .string()
  .min(1)
  .max(50)
  .regex(customFieldNamePattern, 'must contain only a-z, 0-9, _ and -');

export const CustomFieldValueSchema = z.union([
  z.string().max(256),
  z.number(),
  z.boolean(),
  z.array(z.string().max(256)),
  z.null(),
]);

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
  .describe('Safety policy for this organization.');

export const CustomFieldSchema = z.strictObject({
  name: CustomFieldName.describe('Identity of the field: a-z, 0-9, _ and -, 1 to 50 characters.'),
  type: z.enum(customFieldTypes),
  title: z.string().max(100).optional(),
  description: z.string().max(200).optional(),
  placeholder: z.string().max(100).optional(),
  options: z.array(z.string().min(1).max(40)).min(1).max(50).optional(),
});

export const SpaceSchema = z.strictObject({
  id: z.string().min(1).describe('Id of an existing space.'),
  customFields: z
    .record(CustomFieldName, CustomFieldValueSchema)
    .describe('Custom field values, by field name.'),
});

export const TeamMemberSchema = z.union([
  z.string().min(1).describe('User id or e-mail; role member.'),
  z.strictObject({
    user: z.string().min(1).describe('User id or e-mail.'),
    role: z.enum(teamRoles).optional().describe('owner or member (default member).'),
  }),
]);

export const TeamSchema = z.strictObject({
  title: z
    .string()
    .min(1)
    .max(64)
    .describe('Identity of the team (unless id is pinned), 1 to 64 characters.'),
  id: z.string().min(1).optional().describe('Pin to a live team id; allows renames.'),
  members: z.array(TeamMemberSchema).optional().describe('The full membership when present.'),
});

export const ShareLinkSchema = z.strictObject({
  name: z.string().min(1).max(50).describe('Identity of the share link within its site.'),
  active: z.boolean().optional(),
});

export const SiteSpaceSchema = z.strictObject({
  space: z.string().min(1).describe('Id of the space; identity of the site space within its site.'),
  path: Path.optional(),
  condition: Condition.nullable().optional(),
  default: z.boolean().optional().describe('Default site space of its section (or of the site root).'),
});

export const SectionSchema = z.strictObject({
  path: Path.describe('Identity of the section within its site.'),
  title: z.string().min(2).max(128),
  icon: Icon.nullable().optional(),
  description: z.string().max(256).nullable().optional(),
  condition: Condition.nullable().optional(),
  default: z.boolean().optional().describe('Default section of the site (at most one).'),
  spaces: z.array(SiteSpaceSchema).describe('Site spaces of this section, in display order (at least one).'),
});

export const SectionGroupSchema = z.strictObject({
  title: z.string().min(1).max(100).describe('Identity of the group within its site.'),
  icon: Icon.nullable().optional(),
  sections: z.array(Path).describe('Paths of the sections in this group.'),
});

export const SiteSchema = z.strictObject({
  title: z
    .string()
    .min(2)
    .max(128)
    .describe('Identity of the site (unless id is pinned), 2 to 128 characters.'),
  id: z.string().min(1).optional().describe('Pin to a live site id; allows renames.'),
  visibility: z.enum(visibilities).optional(),
  basename: z.string().min(1).max(100).optional(),
  agentsContext: z.enum(agentsContexts).optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  proxy: z.string().max(512).regex(proxyPattern, 'must look like company.com/docs').nullable().optional(),
  shareLinks: z.array(ShareLinkSchema).optional(),
  sections: z.array(SectionSchema).optional().describe('Sections in display order.'),
  sectionGroups: z.array(SectionGroupSchema).optional(),
  spaces: z.array(SiteSpaceSchema).optional().describe('Root site spaces, for a site without sections.'),
});

export const ConfigFileSchema = z
  .strictObject({
    organization: z.string().min(1).describe('The organization id.'),
    policy: PolicySchema.optional(),
    customFields: z.array(CustomFieldSchema).optional(),
    spaces: z.array(SpaceSchema).optional(),
    teams: z.array(TeamSchema).optional(),
    sites: z.array(SiteSchema).optional(),
  })
  .describe('A docsync configuration file (format v1): the desired state of one organization.');

export type ConfigFile = z.infer<typeof ConfigFileSchema>;
