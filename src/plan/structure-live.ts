import type { LiveSite } from '../kinds/site.js';
import type { LiveSiteSpace } from '../kinds/site-structure.js';
import { node, type StructureNode } from './structure-node.js';

/**
 * The live navigation of a site as a tree of nodes (groups nested, sections, site spaces, external
 * links in place), and the walks src/plan/structure-tree.ts uses to draw a plan's changes on it.
 */

/** The node of each kind of item a link may follow. */
const NODE_OF: Record<string, StructureNode['kind']> = {
  'site-section': 'section',
  'site-section-group': 'section-group',
  'site-external-link': 'external-link',
};

/** An external link's line: its title and where it goes. */
export const linkLabel = (title: string, url: unknown) =>
  typeof url === 'string' ? `${title} → ${url}` : title;

/** A live site's navigation: groups (nested), sections, site spaces and external links in place. */
export function siteNode(org: string, site: LiveSite): StructureNode {
  const addr = `${org}/sites/${site.title}`;
  const root = node('site', site.title, site.title, addr);
  const spaceNode = (parent: string, s: LiveSiteSpace) =>
    node('site-space', s.space, `${s.space} /${s.path}`, `${parent}/spaces/${s.space}`, s);
  const groups = new Map(
    (site.sectionGroups ?? []).map((g) => [
      g.id,
      node('section-group', g.title, g.title, `${addr}/section-groups/${g.title}`, g),
    ]),
  );
  const parentOf = new Map((site.sectionGroups ?? []).map((g) => [g.id, g.parent]));
  const placed = new Set<StructureNode>();
  // A group is drawn where it is first needed: in its parent group (nested), or at the root.
  const attach = (id: string) => {
    const group = groups.get(id)!;
    if (placed.has(group)) return;
    placed.add(group);
    const parent = parentOf.get(id);
    if (!parent || !groups.has(parent) || isWithin(parentOf, parent, id)) return root.children.push(group);
    groups.get(parent)!.children.push(group);
    attach(parent);
  };
  const place = (n: StructureNode, groupId: string | null) => {
    if (!groupId || !groups.has(groupId)) return root.children.push(n);
    groups.get(groupId)!.children.push(n);
    attach(groupId);
  };
  for (const s of site.sections ?? []) {
    const sAddr = `${addr}/sections/${s.path}`;
    const sec = node('section', s.path, `${s.title} /${s.path}`, sAddr, s);
    sec.children = s.spaces.map((ss) => spaceNode(sAddr, ss));
    place(sec, s.group);
  }
  for (const id of groups.keys()) attach(id);
  for (const ss of site.spaces ?? []) root.children.push(spaceNode(addr, ss));
  // External links: right after the item before them in the structure, else last of their level.
  for (const l of site.externalLinks ?? []) {
    const n = node(
      'external-link',
      l.title,
      linkLabel(l.title, l.url),
      `${addr}/external-links/${l.title}`,
      l,
    );
    place(n, l.group);
    const level = l.group && groups.has(l.group) ? groups.get(l.group)! : root;
    const prev =
      l.prev && level.children.find((x) => x.key === l.prev!.name && x.kind === NODE_OF[l.prev!.type]);
    if (prev) {
      level.children.splice(level.children.indexOf(n), 1);
      level.children.splice(level.children.indexOf(prev) + 1, 0, n);
    }
  }
  return root;
}

/** Whether group `id` is `ancestor` or nested in it (a live cycle is drawn flat). */
function isWithin(parentOf: ReadonlyMap<string, string | null>, id: string, ancestor: string): boolean {
  let at: string | null | undefined = id;
  for (let n = 0; at && n <= parentOf.size; n += 1, at = parentOf.get(at)) if (at === ancestor) return true;
  return false;
}

/** Every node under `root` (itself included) with its parent. */
export function walk(
  root: StructureNode,
  parent: StructureNode | null,
  visit: (n: StructureNode, parent: StructureNode | null) => void,
): void {
  visit(root, parent);
  for (const c of [...root.children]) walk(c, root, visit);
}

/** Give every node the address the plan uses for it, from the (final) names of it and its parents. */
export function readdress(root: StructureNode, org: string, names: ReadonlyMap<StructureNode, string>): void {
  const name = (n: StructureNode) => names.get(n) ?? n.key;
  const visit = (n: StructureNode, site: string, parent: string) => {
    if (n.kind === 'site') n.address = `${org}/sites/${name(n)}`;
    else if (n.kind === 'section-group') n.address = `${site}/section-groups/${name(n)}`;
    else if (n.kind === 'section') n.address = `${site}/sections/${name(n)}`;
    else if (n.kind === 'external-link') n.address = `${site}/external-links/${name(n)}`;
    else n.address = `${parent}/spaces/${name(n)}`;
    const nextSite = n.kind === 'site' ? n.address : site;
    // Sections inside a group hang off the site, not the group, in addresses.
    const nextParent = n.kind === 'section-group' ? site : n.address;
    for (const c of n.children) visit(c, nextSite, nextParent);
  };
  for (const site of root.children) visit(site, '', '');
}
