import type { Draft } from '../diff/draft.js';
import type { EntryChecks } from './shapes.js';

/**
 * Where external links are in a site's navigation (today's API): in a section group (`group`) and
 * right after a given section, group or link of the same level (`after`). The structure answer
 * says where each link is; the pure parts of reading, checking and planning it are here, beside
 * external-link.ts, which uses them.
 */

/** The type of an item of a level of the navigation, as the structure and its sort call name it. */
export type NavType = string;

/** The type the structure gives external links. */
export const LINK = 'site-external-link';

/** The item right before a link at its level: its type, id and name (section path, group or link title). */
export type Neighbour = { type: NavType; id: string; name: string };

type Item = {
  object?: string | undefined;
  id?: unknown;
  title?: unknown;
  path?: unknown;
  children?: unknown;
};

/**
 * Every external link of a structure answer, with the group it is in (null: the root) and the item
 * right before it at its level (null: it is first), in navigation order, groups nested at any depth
 * (an item with `children` is a group; an item is named by its path, else its title).
 */
export function placedLinks(
  structure: readonly Item[],
): { link: Item; group: string | null; prev: Neighbour | null }[] {
  const out: { link: Item; group: string | null; prev: Neighbour | null }[] = [];
  const level = (items: readonly Item[], group: string | null, depth: number) => {
    let prev: Neighbour | null = null;
    for (const x of items) {
      if (x.object === LINK) out.push({ link: x, group, prev });
      if (Array.isArray(x.children) && depth < 32) level(x.children as Item[], String(x.id), depth + 1);
      if (x.object && x.id !== undefined)
        prev = { type: x.object, id: String(x.id), name: String(x.path ?? x.title) };
    }
  };
  level(structure, null, 0);
  return out;
}

/**
 * What a site entry's structure holds that a link may be in or after: its groups' titles, and by
 * name the type and level ('' for the root, else a group's title) of each section and group.
 */
export type StructureNames = {
  groups: ReadonlySet<string>;
  named: ReadonlyMap<string, { type: NavType; level: string }[]>;
};

type Link = { title: string; group?: string | null | undefined; after?: string | undefined };

/** A link's level: its group, or the root (placed with `after` and no group, or `group: null`). */
const linkLevel = (l: Link | undefined): string => l?.group ?? '';

/** Checks of where a site's links are: known groups, `after` naming one item of the same level, once. */
export function checkLinkPlaces(
  links: readonly Link[] | undefined,
  names: StructureNames,
  on: EntryChecks,
): void {
  const placedAfter = new Map<string, number>();
  const itemsNamed = (name: string) => [
    ...(names.named.get(name) ?? []),
    ...(links ?? []).filter((x) => x.title === name).map((x) => ({ type: LINK, level: linkLevel(x) })),
  ];
  links?.forEach((l, i) => {
    if (typeof l.group === 'string' && !names.groups.has(l.group))
      on.report(
        ['externalLinks', i, 'group'],
        `no section group titled "${l.group}" in this site's sectionGroups`,
        'unknown-reference',
      );
    if (l.after === undefined) return;
    const at = ['externalLinks', i, 'after'];
    const items = itemsNamed(l.after);
    if (l.after === l.title) return on.report(at, 'a link cannot be placed after itself');
    if (items.length === 0)
      return on.report(
        at,
        `no section path, section group or external link named "${l.after}" in this site`,
        'unknown-reference',
      );
    if (items.length > 1)
      return on.report(at, `"${l.after}" names several items: rename one to place the link after it`);
    const level = items[0]!.level;
    const mine = linkLevel(l);
    if (level !== mine)
      return on.report(
        at,
        `"${l.after}" is ${level ? `in section group "${level}"` : "at the site's root"}, the link ${mine ? `in "${mine}"` : 'at the root'}: after names an item of the link's level`,
      );
    const first = placedAfter.get(l.after);
    if (first !== undefined)
      return on.report(at, `link "${links[first]!.title}" is already placed right after "${l.after}"`);
    placedAfter.set(l.after, i);
  });
  // Links placed after one another in a circle can never all be right.
  links?.forEach((l, i) => {
    if (l.after === l.title) return;
    const chain = [l.title];
    for (let at = l.after; at; at = links.find((x) => x.title === at)?.after) {
      if (!links.some((x) => x.title === at) || chain.length > links.length) break;
      chain.push(at);
      if (at === l.title)
        return on.report(
          ['externalLinks', i, 'after'],
          `links placed after one another in a circle (${chain.join(' → ')})`,
        );
    }
  });
}

/** Links with `after`, each after the link it names (if any): the order their sort calls run in. */
export function anchorsFirst<T extends { d: { title: string; after?: string } }>(links: readonly T[]): T[] {
  const byTitle = new Map(links.map((l) => [l.d.title, l]));
  const out: T[] = [];
  const seen = new Set<T>();
  const visit = (l: T, depth: number) => {
    if (seen.has(l) || depth > links.length) return;
    seen.add(l);
    const anchor = l.d.after === undefined ? undefined : byTitle.get(l.d.after);
    if (anchor) visit(anchor, depth + 1);
    out.push(l);
  };
  for (const l of links) visit(l, 0);
  return out;
}

/**
 * Whether a change of the plan, in the site at `siteAddr`, comes between a link and the item it
 * must follow: a move right after that item (`name`, of `type`), or right before the link.
 */
export function disturbs(
  d: Draft,
  siteAddr: string,
  anchor: { type: NavType; name: string },
  link: string,
): boolean {
  if (d.action !== 'move' || !d.address.startsWith(`${siteAddr}/`)) return false;
  const after = d.after?.['after'];
  const before = d.after?.['before'];
  const kindOf = d.kind as string;
  return (
    (kindOf === anchor.type && after === anchor.name) || (kindOf === 'site-external-link' && before === link)
  );
}
