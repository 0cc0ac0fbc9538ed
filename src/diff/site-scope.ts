import type { SitePaths } from './site-paths.js';
import type { Ref } from '../model/index.js';

/** A site space entry of the config, as far as its `brokenLinks` goes. */
type SpaceEntry = { space: string; brokenLinks?: string };
/** The site's sections and site spaces as the config gives them (to name an entry's own setting). */
export type SiteEntries = {
  sections?: readonly { path: string; brokenLinks?: string; spaces: readonly SpaceEntry[] }[];
  spaces?: readonly SpaceEntry[];
};

/** One site being diffed: how to reference it, and the site update being assembled. */
export type SiteScope = {
  addr: string;
  ref: Ref;
  createKey?: string;
  patch: {
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    body: Record<string, unknown>;
    deps: (string | undefined)[];
  };
  /** Whether the live site is published: only its paths are links to keep (decision 36). */
  served?: boolean;
  /** Live ids of its draft sections and site spaces: not published, so no links to keep (decision 36). */
  drafts?: ReadonlySet<string>;
  /** Its sections and site spaces in the config: whose own `brokenLinks` refused a path. */
  entries?: SiteEntries;
  /** Whether a part reads `paths` (the redirects, where the API has them): else they are not made. */
  pathsRead?: boolean;
  /** Where each path leads after the plan, recorded by the structure's diff (decision 36). */
  paths?: SitePaths;
  /** The site's `redirectFallback`: where deleted published paths go. */
  fallback?: string;
  /** Whether a part reads `nav` (the external links the config gives): else it is not made. */
  navRead?: boolean;
  /**
   * What the structure's diff left for what is placed among its items (external links): its
   * sections and groups by name (path or title) with their type, and its groups by title.
   */
  nav?: { items: Map<string, NavSlot & { type: string }>; groups: Map<string, NavSlot> };
};

/**
 * A section or group of the site's navigation: how to reference it, its live id, and the keys of
 * the changes that create it or put it in another group, if any.
 */
export type NavSlot = { ref: Ref; liveId?: string; createKey?: string; arrival?: string };
