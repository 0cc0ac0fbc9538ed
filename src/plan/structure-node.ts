import type { Change } from '../reconcile/index.js';

/**
 * The nodes of a site's navigation tree (src/plan/structure-tree.ts draws a plan's changes on them):
 * their kinds, marks and states, and which kinds of change are drawn on them.
 */

/**
 * The kinds of change drawn on a site's navigation, each with the node it draws and the segment of
 * its address below its parent (`…/sites/Docs/sections/guides`). A kind joins the tree with one
 * entry here (and its nodes in `siteNode`, from the live site). Memberships move sections between
 * groups; they draw no node of their own.
 */
export const TREE_KINDS: Record<string, { node: StructureNode['kind']; segment: string } | undefined> = {
  site: { node: 'site', segment: '/sites/' },
  'site-section': { node: 'section', segment: '/sections/' },
  'site-section-group': { node: 'section-group', segment: '/section-groups/' },
  'site-space': { node: 'site-space', segment: '/spaces/' },
  'site-external-link': { node: 'external-link', segment: '/external-links/' },
};

/** The kinds that make up a site's navigation. */
export const STRUCTURE_KINDS: ReadonlySet<Change['kind']> = new Set([
  ...(Object.keys(TREE_KINDS) as Change['kind'][]),
  'section-group-membership',
  // Drawn on their site: the redirects a plan adds or changes (decision 36).
  'site-redirect',
]);

export type TreeMark = '+' | '~' | '-' | '↕';

export const MARK: Record<Change['action'], TreeMark> = { create: '+', update: '~', delete: '-', move: '↕' };

/** A pending change drawn on a node: its mark, and the changed fields as the text plan shows them. */
export type TreeChange = {
  id: string;
  action: Change['action'];
  mark: TreeMark;
  fields: string[];
  note?: string;
};

/** What a reader should know of a node besides its name: not live yet, or left out of the navigation. */
export type NodeState = 'draft' | 'hidden';

export type StructureNode = {
  kind: 'site' | 'section-group' | 'section' | 'site-space' | 'external-link';
  /** Identity among siblings: site or group title, section path, space id (what move anchors name). */
  key: string;
  /** What a reader sees: title, with the path where there is one. */
  label: string;
  address: string;
  /** Drafts (not live: the site's preview shows them) and hidden site spaces, as they are (or will be). */
  states: NodeState[];
  /** The strongest pending mark on the node, if any. */
  mark?: TreeMark;
  changes: TreeChange[];
  children: StructureNode[];
};

/** What a reader calls each kind of node (the status page's label). */
export const NODE_WORD: Record<StructureNode['kind'], string> = {
  site: 'site',
  'section-group': 'group',
  section: 'section',
  'site-space': 'site space',
  'external-link': 'external link',
};

/** The kinds of node whose text line says what it is (`Products (group)`). */
export const NODE_HINTED: readonly StructureNode['kind'][] = ['site', 'section-group', 'external-link'];

export type OrgStructure = {
  organization: string;
  sites: StructureNode[];
  /** Structure changes that name no node of the tree (shown as a list). */
  unplaced: Change[];
};

export type TreeOptions = {
  /** Changes already applied: drawn as done (no mark), in place. */
  applied?: ReadonlySet<string>;
  /** `after`: pending changes also take effect (creations appended, moves reorder). Default `now`. */
  arrange?: 'now' | 'after';
};

export const RANK: Record<TreeMark, number> = { '-': 4, '+': 3, '↕': 2, '~': 1 };

/** Whether a plan touches any site's navigation (sites, groups, sections, site spaces). */
export function touchesStructure(changes: readonly Change[]): boolean {
  return changes.some((c) => STRUCTURE_KINDS.has(c.kind));
}

/** A node of the tree, without changes or children yet. */
export function node(
  kind: StructureNode['kind'],
  key: string,
  label: string,
  address: string,
  flags: { draft?: boolean; hidden?: boolean } = {},
): StructureNode {
  const states: NodeState[] = [];
  if (flags.draft) states.push('draft');
  if (flags.hidden) states.push('hidden');
  return { kind, key, label, address, states, changes: [], children: [] };
}
