import type { SitePaths } from './site-paths.js';
import type { Ref } from '../model/index.js';

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
  /** Where each path leads after the plan, recorded by the structure's diff (decision 36). */
  paths?: SitePaths;
  /** The site's `redirectFallback`: where deleted published paths go. */
  fallback?: string;
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
