import { z } from 'zod';
import { memberRoles } from '../model/kinds.js';

/** Config fields that several kinds share (their JSON Schema and reference come from here). */

/** Names a resource had before a rename: docsync pairs it with a live one by them, then renames it. */
export const previously = (key: string) =>
  z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe(
      `Earlier values of ${key}: when no live resource has the current ${key}, the one with an earlier value is renamed in place (one update) instead of a new one being created. No id lookup needed. Omitted: no earlier ${key}, so a changed ${key} is a new resource (unless id is pinned).`,
    );

export const pin = (key: string) =>
  z
    .string()
    .min(1)
    .optional()
    .describe(
      `Pin to a live id: changing ${key} renames that resource in one update, keeping its identity. Omitted: paired with a live resource by ${key} (or previously).`,
    );

export const Role = z.enum(memberRoles);

/** A space's or collection's default access level. */
/** A role, or `inherit` (current API only). */
export const Level = z.union([Role, z.literal('inherit')]);

export const DefaultLevel = Level.nullable().describe('A role, null, or inherit (current API only).');

/** A `parent` key of the tree: the parent's title, or null for the top level. */
export const parentTitle = (description: string) =>
  z.string().min(1).nullable().optional().describe(description);

/** Keep only the keys whose value is defined (an omitted key is unmanaged). */
export function defined<T extends Record<string, unknown>>(value: T): T {
  // A plain loop: this runs once per resource of the config (100k at a time), without temporaries.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

/** Names two live objects share: those are pinned by id on export (decision 3). */
export function duplicatesOf(names: string[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return dup;
}

/** A file name from a title (`Developer Docs` → `developer-docs`), unique among `taken`. */
export function fileSlug(text: string, taken: Set<string>, fallback: string): string {
  const base =
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || fallback;
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}-${n}`;
  taken.add(name);
  return name;
}
