import type { Change, LiveState } from '../reconcile/index.js';
import { fieldLines, formatValue } from './format-value.js';
import { linkLabel, readdress, siteNode, walk } from './structure-live.js';
import {
  MARK,
  node,
  RANK,
  STRUCTURE_KINDS,
  TREE_KINDS,
  type OrgStructure,
  type StructureNode,
  type TreeOptions,
} from './structure-node.js';

/** The value a rename changes: `title` for sites and groups, `path` for sections. */
function renamed(c: Change): { from: string; to: string } | undefined {
  const field =
    c.kind === 'site-section'
      ? 'path'
      : c.kind === 'site' || c.kind === 'site-section-group' || c.kind === 'site-external-link'
        ? 'title'
        : undefined;
  if (!field || c.action !== 'update') return undefined;
  const from = c.before?.[field];
  const to = c.after?.[field];
  return typeof from === 'string' && typeof to === 'string' && from !== to ? { from, to } : undefined;
}

/** One organization's tree being drawn: its nodes by address, their parents, what is left over. */
type Drawing = {
  org: string;
  root: StructureNode;
  index: Map<string, StructureNode>;
  parents: Map<StructureNode, StructureNode>;
  /** Index every node again, by its address now. */
  reindex: () => void;
  /** The address of the site a node is in. */
  siteOf: (n: StructureNode) => string;
  applied: ReadonlySet<string>;
  after: boolean;
  unplaced: Change[];
  removed: Set<StructureNode>;
};

/**
 * The navigation of each organization's sites, from the live state, with the plan's structure
 * changes drawn on it: site → section groups → sections → site spaces, each node marked
 * `+ ~ - ↕` with its changed fields. Pure: the same inputs always give the same tree.
 */
export function structureTree(
  organizations: readonly string[],
  live: LiveState,
  changes: readonly Change[],
  options: TreeOptions = {},
): OrgStructure[] {
  return organizations.map((org) => {
    const d = drawing(org, live, options);
    const mine = changes.filter((c) => STRUCTURE_KINDS.has(c.kind) && c.address.startsWith(`${org}/`));
    applyRenames(d, mine);
    for (const c of mine) drawChange(d, c);
    return { organization: org, sites: d.root.children, unplaced: d.unplaced };
  });
}

/** The live navigation of one organization, indexed. */
function drawing(org: string, live: LiveState, options: TreeOptions): Drawing {
  const liveOrg = live.organizations.find((o) => o.id === org);
  const root = node('site', org, org, org);
  root.children = (liveOrg?.sites ?? []).map((s) => siteNode(org, s));
  const index = new Map<string, StructureNode>();
  const parents = new Map<StructureNode, StructureNode>();
  const reindex = () => {
    index.clear();
    parents.clear();
    walk(root, null, (n, p) => {
      index.set(n.address, n);
      if (p) parents.set(n, p);
    });
  };
  reindex();
  const siteOf = (n: StructureNode): string => {
    let p = parents.get(n);
    while (p && p.kind !== 'site') p = parents.get(p);
    return p?.address ?? '';
  };
  return {
    org,
    root,
    index,
    parents,
    reindex,
    siteOf,
    applied: options.applied ?? new Set<string>(),
    after: options.arrange === 'after',
    unplaced: [],
    removed: new Set(),
  };
}

/** Renames first, before any other change is drawn. */
function applyRenames(d: Drawing, mine: Change[]): void {
  // the plan addresses a renamed node, and everything inside it, by its final
  // name; `before` always names the live value (a swap of two paths goes through a temporary
  // one, each step saying the live path), so match on that and address by the last rename.
  const working = new Map<StructureNode, string>();
  const original = new Map<StructureNode, string>();
  walk(d.root, null, (n) => {
    working.set(n, n.key);
    original.set(n, n.key);
  });
  for (const c of [
    ...mine.filter((x) => x.kind === 'site'),
    null,
    ...mine.filter((x) => x.kind !== 'site'),
  ]) {
    if (c === null) {
      // Sites first: the scopes of section renames name the site by its final title.
      readdress(d.root, d.org, working);
      d.reindex();
      continue;
    }
    const r = renamed(c);
    if (!r) continue;
    const { segment: seg, node: kind } = TREE_KINDS[c.kind]!;
    const scope = c.address.slice(0, c.address.lastIndexOf(seg));
    const candidates =
      c.kind === 'site'
        ? d.root.children
        : [...d.index.values()].filter((n) => n.kind === kind && d.siteOf(n) === scope);
    const n = candidates.find((x) => original.get(x) === r.from);
    if (!n) continue;
    working.set(n, r.to);
    if (d.applied.has(c.id) || d.after) {
      n.key = r.to;
      if (n.kind === 'section') n.label = n.label.replace(/\/[^/]*$/, `/${r.to}`);
      // `\u2192` is the arrow: the shipped program stays ASCII (decision 46).
      else if (n.kind === 'external-link') n.label = n.label.replace(/^.*?(?= \u2192 |$)/, r.to);
      else n.label = r.to;
    }
  }
  readdress(d.root, d.org, working);
  d.reindex();
}

/** Draw one change on its node: mark it, and where it takes effect, place, move or relabel the node. */
function drawChange(d: Drawing, c: Change): void {
  if (c.kind === 'section-group-membership') return drawMembership(d, c);
  if (c.kind === 'site-redirect') return drawRedirects(d, c);
  const existing = d.index.get(c.address);
  if (c.action === 'create' && !existing) return drawCreation(d, c);
  if (!existing || d.removed.has(existing)) {
    if (!d.applied.has(c.id)) d.unplaced.push(c);
    return;
  }
  const done = d.applied.has(c.id);
  const effect = done || d.after;
  markNode(d, c, existing);
  const parent = d.parents.get(existing);
  if (c.action === 'delete' && done && parent) {
    parent.children.splice(parent.children.indexOf(existing), 1);
    d.removed.add(existing);
  } else if (c.action === 'move' && effect && parent) {
    const anchor = (c.after?.['before'] ?? c.after?.['after']) as unknown;
    const to =
      parent.children.find((s) => s !== existing && s.key === anchor && s.kind === existing.kind) ??
      // A link placed after a section or a group of its level.
      (existing.kind === 'external-link'
        ? parent.children.find((s) => s !== existing && s.key === anchor && s.kind !== 'site-space')
        : undefined);
    if (to) {
      parent.children.splice(parent.children.indexOf(existing), 1);
      const at = parent.children.indexOf(to) + (c.after && 'after' in c.after ? 1 : 0);
      parent.children.splice(at, 0, existing);
    }
  } else if (
    c.action === 'update' &&
    effect &&
    c.kind === 'site-space' &&
    typeof c.after?.['path'] === 'string'
  ) {
    existing.label = `${existing.key} /${c.after['path']}`;
  } else if (
    c.action === 'update' &&
    effect &&
    c.kind === 'site-section' &&
    typeof c.after?.['title'] === 'string'
  ) {
    existing.label = `${c.after['title']} /${existing.key}`;
  } else if (c.action === 'update' && effect && c.kind === 'site-external-link' && c.after?.['url'])
    existing.label = linkLabel(existing.key, c.after['url']);
  if (c.action === 'update' && effect) setStates(existing, c.after);
  if (c.action === 'update' && effect) regroup(d, existing, containerField(c));
}

/** The field of a change that names the group a node is in (a group's `parent`, a link's `group`). */
function containerField(c: Change): unknown {
  if (c.kind === 'site-section-group') return c.after?.['parent'];
  if (c.kind === 'site-external-link') return c.after?.['group'];
  return undefined;
}

/** The node of the group titled `title` in the site of `n` (null: the site itself). */
function containerNode(d: Drawing, siteAddr: string, title: string | null): StructureNode | undefined {
  return title === null ? d.index.get(siteAddr) : d.index.get(`${siteAddr}/section-groups/${title}`);
}

/** A node that goes into another group (or to the site's root), once its change takes effect: last there. */
function regroup(d: Drawing, n: StructureNode, target: unknown): void {
  if (target !== null && typeof target !== 'string') return;
  const to = containerNode(d, d.siteOf(n), target);
  const from = d.parents.get(n);
  if (!to || !from || to === from || to === n) return;
  from.children.splice(from.children.indexOf(n), 1);
  to.children.push(n);
  d.parents.set(n, to);
}

/** A change of `draft` or `hidden`, once it takes effect: the node's states follow. */
function setStates(n: StructureNode, after: Change['after']): void {
  for (const state of ['draft', 'hidden'] as const) {
    const want = after?.[state];
    if (typeof want !== 'boolean') continue;
    n.states = n.states.filter((x) => x !== state);
    if (want) n.states.push(state);
  }
  n.states.sort();
}

/** A section joins or leaves a group. */
function drawMembership(d: Drawing, c: Change): void {
  const done = d.applied.has(c.id);
  const effect = done || d.after;
  // `<group address>/sections/<path>`: a section joins or leaves a group.
  const cut = c.address.lastIndexOf('/sections/');
  const group = d.index.get(c.address.slice(0, cut));
  const siteAddr = c.address.slice(0, c.address.lastIndexOf('/section-groups/'));
  const section = d.index.get(`${siteAddr}/sections/${c.address.slice(cut + '/sections/'.length)}`);
  if (!group || !section) {
    if (!done) d.unplaced.push(c);
    return;
  }
  markNode(d, c, section);
  const from = d.parents.get(section)!;
  if (effect && c.action !== 'delete' && from !== group) {
    from.children.splice(from.children.indexOf(section), 1);
    group.children.push(section);
    d.parents.set(section, group);
  } else if (effect && c.action === 'delete' && from === group) {
    const site = d.parents.get(group)!;
    group.children.splice(group.children.indexOf(section), 1);
    site.children.splice(site.children.indexOf(group) + 1, 0, section);
    d.parents.set(section, site);
  }
}

/** A node the plan creates, under its parent (a new section with its first site space, a new group with its sections). */
function drawCreation(d: Drawing, c: Change): void {
  const done = d.applied.has(c.id);
  const effect = done || d.after;
  const tree = TREE_KINDS[c.kind];
  const seg = tree?.segment ?? '';
  const cut = tree ? c.address.lastIndexOf(seg) : -1;
  const parent = cut < 0 ? undefined : c.kind === 'site' ? d.root : d.index.get(c.address.slice(0, cut));
  if (!parent || !tree) {
    if (!done) d.unplaced.push(c);
    return;
  }
  const key = c.address.slice(cut + seg.length);
  // A group created in a group, a link in a group: drawn there.
  const inGroup = containerField(c);
  const container =
    typeof inGroup === 'string' ? (containerNode(d, parent.address, inGroup) ?? parent) : parent;
  const title = typeof c.after?.['title'] === 'string' ? c.after['title'] : key;
  const kind = tree.node;
  const label =
    kind === 'section'
      ? `${title} /${key}`
      : kind === 'site-space'
        ? key
        : kind === 'external-link'
          ? linkLabel(title, c.after?.['url'])
          : title;
  const n = node(kind, key, label, c.address, { draft: c.after?.['draft'] === true });
  markNode(d, c, n);
  // A new section comes with its first site space.
  const first = c.after?.['space'];
  if (kind === 'section' && typeof first === 'string') {
    const child = node('site-space', first, first, `${c.address}/spaces/${first}`);
    if (!done) child.mark = '+';
    n.children.push(child);
    d.index.set(child.address, child);
    d.parents.set(child, n);
  }
  container.children.push(n);
  d.index.set(n.address, n);
  d.parents.set(n, container);
  // A new group comes with the sections it names.
  const members = c.after?.['sections'];
  if (kind === 'section-group' && effect && Array.isArray(members))
    for (const path of members) {
      const sec = d.index.get(`${parent.address}/sections/${String(path)}`);
      const from = sec && d.parents.get(sec);
      if (!sec || !from) continue;
      // The group takes the place of its first section.
      if (n.children.length === 0 && from === container) {
        container.children.splice(container.children.indexOf(n), 1);
        container.children.splice(container.children.indexOf(sec), 0, n);
      }
      from.children.splice(from.children.indexOf(sec), 1);
      n.children.push(sec);
      d.parents.set(sec, n);
    }
}

/** Redirects of a site: their lines on the site's node (`redirect /guides: null → "/tutorials"`), marked as a change of it. */
function drawRedirects(d: Drawing, c: Change): void {
  const site = d.index.get(c.address.slice(0, c.address.indexOf('/redirects')));
  if (!site) {
    if (!d.applied.has(c.id)) d.unplaced.push(c);
    return;
  }
  if (d.applied.has(c.id)) return;
  const one = c.address.slice(c.address.indexOf('/redirects') + '/redirects'.length);
  const bulk = one === '' || one.startsWith('#');
  const lines = bulk
    ? fieldLines(c).map((l) => `redirect ${l}`)
    : c.action === 'delete'
      ? [`redirect ${one} removed`]
      : fieldLines(c).map((l) => `redirect ${one} ${l}`);
  site.changes.push({
    id: c.id,
    action: c.action,
    mark: '~',
    fields: lines,
    ...(c.note ? { note: c.note } : {}),
  });
  if (!site.mark) site.mark = '~';
}

/** Mark a node with a pending change (a section joining or leaving a group is a change of the section, not its creation). */
function markNode(d: Drawing, c: Change, n: StructureNode): void {
  if (d.applied.has(c.id)) return;
  const membership = c.kind === 'section-group-membership';
  const symbol = membership ? '~' : MARK[c.action];
  const lines = membership
    ? [
        c.action === 'create'
          ? `joins group ${formatValue(c.after?.['group'])}`
          : c.action === 'delete'
            ? `leaves group ${formatValue(c.before?.['group'])}`
            : `group: ${formatValue(c.before?.['group'])} → ${formatValue(c.after?.['group'])}`,
      ]
    : fieldLines(c);
  n.changes.push({
    id: c.id,
    action: c.action,
    mark: symbol,
    fields: lines,
    ...(c.note ? { note: c.note } : {}),
  });
  if (!n.mark || RANK[symbol] > RANK[n.mark]) n.mark = symbol;
}
