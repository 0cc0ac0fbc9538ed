import type { Ref } from '../model/index.js';
import type {
  DesiredSiteSpace,
  DesiredStructure,
  LiveSection,
  LiveSiteSpace,
  SectionOp,
  SectionSlot,
} from './site-section.js';
import type { SiteSpaceOp } from './site-space.js';
import type { KindDrafts } from '../diff/builder.js';
import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';

/** The shapes the steps of a site's structure diff share (site-structure-diff.ts and its helpers). */

export type Container = {
  slot: SectionSlot | null;
  addr: string;
  live: LiveSiteSpace[];
  placements: SpacePlacement[];
};

export type SpacePlacement = {
  d: DesiredSiteSpace;
  container: Container;
  addr: string;
  ref: Ref;
  createKey?: string;
  updateKey?: string;
  live?: LiveSiteSpace;
};

/** What the steps of one site's structure diff share. */
export type Structure = {
  ctx: DiffContext;
  org: string;
  site: SiteScope;
  d: DesiredStructure;
  sections: KindDrafts<SectionOp>;
  siteSpaces: KindDrafts<SiteSpaceOp>;
  liveSections: LiveSection[];
  /** Live sections that a desired one pairs with. */
  used: Set<LiveSection>;
  slots: SectionSlot[];
  /** Spaces that stay in a section the config leaves alone (prune off), by space id. */
  held: Map<string, LiveSection>;
  stays: (space: string, ls: LiveSection) => void;
  /** Keys of section deletions, by live section id. */
  deletedSections: Map<string, string>;
  /** Every place site spaces are managed: each section slot, then the site's root (`root`). */
  containers: Container[];
  root: Container | null;
  /** Keys of the drafts that take a live site space out of its place, by its id. */
  movedOut: Map<string, string>;
  /** The site's live customization, when read: a site space's overrides are what differs from it. */
  siteDoc: Record<string, unknown> | undefined;
};
