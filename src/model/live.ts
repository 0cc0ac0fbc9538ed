import type { AgentsContext, Visibility } from './kinds.js';
import type { LiveLists, LiveObjects, LiveSiteFacets, LiveSiteLists, LiveTree } from '../kinds/registry.js';

/**
 * Live state: what the API says, normalized into the same vocabulary as the desired state.
 * Every optional API field is present here as `null` when unset, so the diff compares like with
 * like. Lists keep the API's display order. Secrets (share-link URLs) are never part of it.
 * A list that is `undefined` was not read (its kind is not managed by the config).
 */
export type LiveState = {
  organizations: LiveOrganization[];
};

/** The lists of list kinds (src/kinds/registry.ts) come from their modules. */
export type LiveOrganization = LiveLists &
  LiveObjects &
  LiveTree & {
    id: string;
    /** Why this organization's live state could not be read (its plan is an error; others go on). */
    readError?: string;
    /** The user the token belongs to (never removed). */
    self?: string | null;
    /** Lists read for export's notes only, by kind key: what the API answers but docsync does not manage. */
    readOnly?: Record<string, unknown[]>;
    sites?: LiveSite[];
  };

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

export type LiveSite = LiveSiteLists &
  LiveSiteFacets & {
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
  };
