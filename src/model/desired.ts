import type { AgentsContext, Visibility } from './kinds.js';
import type {
  DesiredLists,
  DesiredObjects,
  DesiredSiteFacets,
  DesiredSiteLists,
  DesiredTree,
} from '../kinds/registry.js';

/**
 * Desired state: what the YAML says, normalized. A field that is `undefined` is not managed
 * (the config omitted it); `null` means "clear it" where the API allows clearing.
 * A list that is `undefined` means the whole kind is unmanaged in that scope.
 */
export type DesiredState = {
  organizations: DesiredOrganization[];
};

export type Policy = { prune: boolean; maxDeletes: number };

/** The lists of list kinds (src/kinds/registry.ts) come from their modules. */
export type DesiredOrganization = DesiredLists &
  DesiredObjects &
  DesiredTree & {
    id: string;
    policy: Policy;
    sites?: DesiredSite[];
  };

/** `id` pins a live resource; `previously` lists earlier names (a rename without an id lookup). */
export type Renamable = { id?: string; previously?: string[] };

/** Where a certificate comes from; its content is never part of the desired state, only its hash. */
export type CertificateRef =
  { source: 'file'; path: string; sha256: string } | { source: 'env'; name: string; sha256: string };

export type DesiredSiteSpace = {
  space: string;
  path?: string;
  condition?: string | null;
  default?: boolean;
};

export type DesiredSection = {
  path: string;
  /** Omitted: the platform's default on creation (the first space's title), unmanaged afterwards. */
  title?: string;
  icon?: string | null;
  description?: string | null;
  condition?: string | null;
  default?: boolean;
  spaces: DesiredSiteSpace[];
};

export type DesiredSectionGroup = Renamable & {
  title: string;
  icon?: string | null;
  /** Paths of the member sections; omitted: the group's memberships are unmanaged. */
  sections?: string[];
};

export type DesiredSite = Renamable &
  DesiredSiteFacets &
  DesiredSiteLists & {
    title: string;
    visibility?: Visibility;
    basename?: string;
    agentsContext?: AgentsContext;
    adaptiveContent?: { enabled: boolean };
    proxy?: string | null;
    sections?: DesiredSection[];
    sectionGroups?: DesiredSectionGroup[];
    spaces?: DesiredSiteSpace[];
  };
