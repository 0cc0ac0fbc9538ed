import type { AgentsContext, CustomFieldType, CustomFieldValue, TeamRole, Visibility } from './kinds.js';

/**
 * Live state: what the API says, normalized into the same vocabulary as the desired state.
 * Every optional API field is present here as `null` when unset, so the diff compares like with
 * like. Lists keep the API's display order. Secrets (share-link URLs) are never part of it.
 * A list that is `undefined` was not read (its kind is not managed by the config).
 */
export type LiveState = {
  organizations: LiveOrganization[];
};

export type LiveOrganization = {
  id: string;
  customFields?: LiveCustomField[];
  spaces?: LiveSpace[];
  teams?: LiveTeam[];
  sites?: LiveSite[];
};

export type LiveCustomField = {
  name: string;
  type: CustomFieldType;
  title: string | null;
  description: string | null;
  placeholder: string | null;
  options: string[] | null;
};

export type LiveSpace = {
  id: string;
  customFields: Record<string, CustomFieldValue>;
};

export type LiveTeamMember = { userId: string; email: string | null; role: TeamRole };

export type LiveTeam = {
  id: string;
  title: string;
  /** Undefined when memberships were not read. */
  members?: LiveTeamMember[];
};

export type LiveShareLink = { id: string; name: string; active: boolean };

export type LiveSiteSpace = {
  id: string;
  space: string;
  path: string;
  condition: string | null;
  default: boolean;
};

export type LiveSection = {
  id: string;
  path: string;
  title: string;
  icon: string | null;
  description: string | null;
  condition: string | null;
  default: boolean;
  group: string | null;
  spaces: LiveSiteSpace[];
};

export type LiveSectionGroup = { id: string; title: string; icon: string | null };

export type LiveSite = {
  id: string;
  title: string;
  visibility: Visibility;
  basename: string | null;
  agentsContext: AgentsContext | null;
  adaptiveContent: { enabled: boolean } | null;
  proxy: string | null;
  sections?: LiveSection[];
  sectionGroups?: LiveSectionGroup[];
  spaces?: LiveSiteSpace[];
  shareLinks?: LiveShareLink[];
};
