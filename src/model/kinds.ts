/** Every kind of resource docsync manages. The plan JSON carries these names. */
export const resourceKinds = [
  'site',
  'site-section',
  'site-section-group',
  'section-group-membership',
  'site-space',
  'share-link',
  'custom-field',
  'space-custom-fields',
  'team',
  'team-members',
] as const;

export type ResourceKind = (typeof resourceKinds)[number];

export type ChangeAction = 'create' | 'update' | 'delete' | 'move';

export const visibilities = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type Visibility = (typeof visibilities)[number];

export const agentsContexts = ['included', 'excluded'] as const;
export type AgentsContext = (typeof agentsContexts)[number];

export const teamRoles = ['owner', 'member'] as const;
export type TeamRole = (typeof teamRoles)[number];

export const customFieldTypes = [
  'text',
  'number',
  'boolean',
  'tags',
  'select:multi',
  'select:single',
] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export type CustomFieldValue = string | number | boolean | string[] | null;
