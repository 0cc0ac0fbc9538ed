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
  /** Live ids of its draft sections and site spaces: not published, so no links to keep (decision 36). */
  drafts?: ReadonlySet<string>;
  /** Where each path leads after the plan, recorded by the structure's diff (decision 36). */
  paths?: SitePaths;
  /** The site's `redirectFallback`: where deleted published paths go. */
  fallback?: string;
};
