import type { Renamable } from '../model/desired.js';

/**
 * A site's structure as the diff sees it, desired and live: the model the structure's modules
 * (site-structure.ts, its diff steps, sections and groups) share.
 */

export type DesiredSiteSpace = { space: string; path?: string; condition?: string | null; default?: boolean };
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
/** A list that is `undefined` is not managed (desired) or not read (live). */
export type DesiredStructure = {
  sections?: DesiredSection[];
  sectionGroups?: DesiredSectionGroup[];
  spaces?: DesiredSiteSpace[];
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
export type LiveStructure = {
  sections?: LiveSection[];
  sectionGroups?: LiveSectionGroup[];
  spaces?: LiveSiteSpace[];
};
