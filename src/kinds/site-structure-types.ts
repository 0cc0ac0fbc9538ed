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
import { kindDrafts, type KindDrafts } from '../diff/builder.js';
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

/** What a site's structure is made of before its diff's steps: the rest starts empty, in one shape. */
type StructureStart = Pick<
  Structure,
  'ctx' | 'site' | 'd' | 'liveSections' | 'used' | 'slots' | 'held' | 'stays' | 'containers' | 'root'
>;

/** A site's structure, as the full diff (pairStructure) and its unchanged path (keptStructure) start it. */
export function newStructure(start: StructureStart): Structure {
  const { ctx } = start;
  return {
    ctx,
    org: ctx.org,
    site: start.site,
    d: start.d,
    sections: kindDrafts<SectionOp>(ctx, 'site-section'),
    siteSpaces: kindDrafts<SiteSpaceOp>(ctx, 'site-space'),
    liveSections: start.liveSections,
    used: start.used,
    slots: start.slots,
    held: start.held,
    stays: start.stays,
    deletedSections: new Map(),
    containers: start.containers,
    root: start.root,
    movedOut: new Map(),
    siteDoc: undefined,
  };
}
