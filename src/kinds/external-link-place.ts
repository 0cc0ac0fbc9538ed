import type { Draft } from '../diff/draft.js';
import type { EntryChecks } from './shapes.js';

/**
 * Where external links are in a site's navigation (today's API): in a section group (`group`) and
 * right after a given section, group or link of the same level (`after`). The structure answer
 * says where each link is; the pure parts of reading, checking and planning it are here, beside
 * external-link.ts, which uses them.
 */

/** The kinds of item of a level of the navigation, as the structure sort names them. */
export type NavType = 'site-section' | 'site-section-group' | 'site-external-link';

/** The item right before a link at its level: its type, id and name (section path, group or link title). */
export type Neighbour = { type: NavType; id: string; name: string };

type Item = {
  object?: string | undefined;
  id?: unknown;
  title?: unknown;
  path?: unknown;
  children?: unknown;
};

const TYPES: readonly string[] = ['site-section', 'site-section-group', 'site-external-link'];

const nameOf = (x: Item): string => String(x.object === 'site-section' ? x.path : x.title);

/**
 * Every external link of a structure answer, with the group it is in (null: the root) and the item
 * right before it at its level (null: it is first), in navigation order, groups nested at any depth.
 */
export function placedLinks(
  structure: readonly Item[],
): { link: Item; group: string | null; prev: Neighbour | null }[] {
  const out: { link: Item; group: string | null; prev: Neighbour | null }[] = [];
  const level = (items: readonly Item[], group: string | null, depth: number) => {
    let prev: Neighbour | null = null;
    for (const x of items) {
      if (x.object === 'site-external-link') out.push({ link: x, group, prev });
      if (x.object === 'site-section-group' && Array.isArray(x.children) && depth < 32)
        level(x.children as Item[], String(x.id), depth + 1);
      if (x.object && TYPES.includes(x.object))
        prev = { type: x.object as NavType, id: String(x.id), name: nameOf(x) };
    }
  };
  level(structure, null, 0);
  return out;
}

/** A site entry's navigation as the checks see it. */
type SiteNav = {
  sections?: { path: string }[] | undefined;
  sectionGroups?:
    { title: string; parent?: string | null | undefined; sections?: string[] | undefined }[] | undefined;
  externalLinks?:
    { title: string; group?: string | null | undefined; after?: string | undefined }[] | undefined;
};

/** What `after` names: the kinds of item of the site that have that name. */
function named(site: SiteNav, name: string): NavType[] {
  return [
    ...(site.sections?.some((s) => s.path === name) ? (['site-section'] as const) : []),
    ...(site.sectionGroups?.some((g) => g.title === name) ? (['site-section-group'] as const) : []),
    ...(site.externalLinks?.some((l) => l.title === name) ? (['site-external-link'] as const) : []),
  ];
}

/** The group an item of the config is in ('' for the root), as the config says. */
function levelOf(site: SiteNav, type: NavType, name: string): string {
  if (type === 'site-section')
    return site.sectionGroups?.find((g) => g.sections?.includes(name))?.title ?? '';
  if (type === 'site-section-group') return site.sectionGroups?.find((g) => g.title === name)?.parent ?? '';
  return linkLevel(site.externalLinks?.find((l) => l.title === name));
}

/** A link's level: its group, or the root (placed with `after` and no group, or `group: null`). */
const linkLevel = (l: { group?: string | null | undefined } | undefined): string => l?.group ?? '';

/** Checks of where a site's links are: known groups, `after` naming one item of the same level, once. */
export function checkLinkPlaces(site: SiteNav, on: EntryChecks): void {
  const groups = new Set(site.sectionGroups?.map((g) => g.title) ?? []);
  const placedAfter = new Map<string, number>();
  site.externalLinks?.forEach((l, i) => {
    if (typeof l.group === 'string' && !groups.has(l.group))
      on.report(
        ['externalLinks', i, 'group'],
        `no section group titled "${l.group}" in this site's sectionGroups`,
        'unknown-reference',
      );
    if (l.after === undefined) return;
    const at = ['externalLinks', i, 'after'];
    const kinds = named(site, l.after);
    if (l.after === l.title) return on.report(at, 'a link cannot be placed after itself');
    if (kinds.length === 0)
      return on.report(
        at,
        `no section path, section group or external link named "${l.after}" in this site`,
        'unknown-reference',
      );
    if (kinds.length > 1)
      return on.report(
        at,
        `"${l.after}" names several items (${kinds.join(', ')}): rename one to place the link after it`,
      );
    const level = levelOf(site, kinds[0]!, l.after);
    const mine = linkLevel(l);
    if (level !== mine)
      return on.report(
        at,
        `"${l.after}" is ${level ? `in section group "${level}"` : "at the site's root"}, the link ${mine ? `in "${mine}"` : 'at the root'}: after names an item of the link's level`,
      );
    const first = placedAfter.get(l.after);
    if (first !== undefined)
      return on.report(
        at,
        `link "${site.externalLinks![first]!.title}" is already placed right after "${l.after}"`,
      );
    placedAfter.set(l.after, i);
  });
  // Links placed after one another in a circle can never all be right.
  site.externalLinks?.forEach((l, i) => {
    if (l.after === l.title) return;
    const chain = [l.title];
    for (let at = l.after; at; at = site.externalLinks!.find((x) => x.title === at)?.after) {
      if (!site.externalLinks!.some((x) => x.title === at) || chain.length > site.externalLinks!.length)
        break;
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
