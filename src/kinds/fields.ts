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
  // `for…in`, not an `Object.keys` array per call: callers pass object literals (no inherited keys).
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

/** Names two live objects share: those are pinned by id on export (decision 3). */
export function duplicatesOf(names: string[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return dup;
}

/** Windows device names: no file may bear one, whatever its extension (git for Windows cannot check it out). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** Longest slug: paths stay far below Windows' 260 characters. */
export const MAX_SLUG = 64;

/**
 * A portable file name (without extension) for a title: lowercase a-z, 0-9 and `-` only (no
 * character any file system refuses, no trailing dot or space, no case to collide on), at most
 * MAX_SLUG characters, never a Windows device name (`con` becomes `con-site`), `fallback` for a
 * title with nothing usable in it (empty, one symbol), and unique within `taken`.
 */
export function fileSlug(text: string, taken: Set<string>, fallback: string): string {
  let base =
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, MAX_SLUG)
      .replace(/^-+|-+$/g, '') || fallback;
  if (WINDOWS_DEVICE.test(base)) base = `${base}-${fallback}`;
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/**
 * A title shorter than the API accepts on a write, yet held live (made before, or elsewhere: 0 or
 * 1 characters): allowed only with `id` pinned, so such an entry is kept by its id and its title
 * compared as it is (export pins them). Without an id, the usual "too short" issue.
 */
export function shortTitlePinned(min: number, what: string) {
  return (entry: { title: string; id?: string | undefined }, ctx: z.RefinementCtx): void => {
    if (entry.title.length >= min || entry.id !== undefined) return;
    ctx.addIssue({
      code: 'too_small',
      origin: 'string',
      minimum: min,
      inclusive: true,
      path: ['title'],
      message: `must be at least ${min} character(s) (shorter only with id pinned, for an existing ${what})`,
    });
  };
}

/** `TranslationLanguage` of the official document: the languages a localized text may name. */
export const LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl',
  'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk',
  'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const; // prettier-ignore

/**
 * A localized text (today's API): overrides for other languages, by language (`{ fr: Guides }`), each
 * at most `max` characters. Given, the whole map is managed (`{}` removes every override).
 */
export const localized = (max: number, what: string) =>
  z
    .partialRecord(z.enum(LANGUAGES), z.string().max(max))
    .optional()
    .describe(
      `Optional (current API): the ${what} in other languages, by language code (en, fr, de, pt-br…), each at most ${max} characters; {} removes them. Omitted: unmanaged.`,
    );

/** Localized overrides of a text, by language, as today's API answers them (lenient). */
export const Localized = z.record(z.string(), z.string());
