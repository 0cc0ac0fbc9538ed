import type { AgentsContext, CustomFieldType, CustomFieldValue, TeamRole, Visibility } from './kinds.js';

/**
 * Desired state: what the YAML says, normalized. A field that is `undefined` is not managed
 * (the config omitted it); `null` means "clear it" where the API allows clearing.
 * A list that is `undefined` means the whole kind is unmanaged in that scope.
 */
export type DesiredState = {
  organizations: DesiredOrganization[];
};

/** Where a resource was declared: used for messages only. */
export type SourceRef = { file: string; line: number; column: number };

export type Policy = { prune: boolean; maxDeletes: number };

export type DesiredOrganization = {
  id: string;
  policy: Policy;
  customFields?: DesiredCustomField[];
  spaces?: DesiredSpace[];
  teams?: DesiredTeam[];
  sites?: DesiredSite[];
};

export type DesiredCustomField = {
  name: string;
  type: CustomFieldType;
  title?: string;
  description?: string;
  placeholder?: string;
  options?: string[];
};

export type DesiredSpace = {
  id: string;
  customFields: Record<string, CustomFieldValue>;
};

export type DesiredTeamMember = { user: string; role: TeamRole };

export type DesiredTeam = {
  title: string;
  id?: string;
  members?: DesiredTeamMember[];
};

export type DesiredShareLink = { name: string; active?: boolean };

export type DesiredSiteSpace = {
  space: string;
  path?: string;
  condition?: string | null;
  default?: boolean;
};

export type DesiredSection = {
  path: string;
  title: string;
  icon?: string | null;
  description?: string | null;
  condition?: string | null;
  default?: boolean;
  spaces: DesiredSiteSpace[];
};

export type DesiredSectionGroup = {
  title: string;
  icon?: string | null;
  sections: string[];
};

export type DesiredSite = {
  title: string;
  id?: string;
  visibility?: Visibility;
  basename?: string;
  agentsContext?: AgentsContext;
  adaptiveContent?: { enabled: boolean };
  proxy?: string | null;
  shareLinks?: DesiredShareLink[];
  sections?: DesiredSection[];
  sectionGroups?: DesiredSectionGroup[];
  spaces?: DesiredSiteSpace[];
};
