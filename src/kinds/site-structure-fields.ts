import {
  type DesiredSection,
  type DesiredSiteSpace,
  type LiveSection,
  type LiveSiteSpace,
} from './site-section.js';
import { fieldsToSet } from '../diff/draft.js';

/**
 * The fields of sections and site spaces the structure diff (site-structure-diff.ts) compares and
 * sets, and the fast checks that they are unchanged.
 */

/** The API takes at most 64 characters of title when it creates a section. */
export const SECTION_CREATE_TITLE_MAX = 64;

export const SECTION_FIELDS = [
  'title',
  'icon',
  'description',
  'condition',
  'path',
  'draft',
  'localizedTitle',
  'localizedDescription',
] as const;
/** What a new section's update sets after its creation (its creation takes its title and draft). */
export const SECTION_SET_AFTER = [
  'path',
  'icon',
  'description',
  'condition',
  'localizedTitle',
  'localizedDescription',
];
export const SITE_SPACE_FIELDS = ['path', 'condition', 'draft', 'hidden', 'pageId'] as const;

/**
 * Whether a field given is the live value as it is (`changedFields` then finds nothing): most
 * fields of most entries. Read by name, not by key, for the site spaces and sections (issue 33).
 */
const keeps = (want: unknown, have: unknown) => want === undefined || want === (have ?? null);

/**
 * Whether no field of `fields` changes from `l` to `d` (`changedFields(d, l, fields)` is then
 * null), for the site spaces and sections of most plans: an indexed walk of the kind's own list,
 * nothing allocated.
 */
function unchangedIn(d: object, l: object, fields: readonly string[]): boolean {
  const want = d as Record<string, unknown>;
  const have = l as Record<string, unknown>;
  for (let i = 0; i < fields.length; i += 1) if (!keeps(want[fields[i]!], have[fields[i]!])) return false;
  return true;
}

/** Whether `changedFields(ds, ss, SITE_SPACE_FIELDS)` is null. */
export const siteSpaceUnchanged = (ds: DesiredSiteSpace, ss: LiveSiteSpace): boolean =>
  unchangedIn(ds, ss, SITE_SPACE_FIELDS);

/** Whether `changedFields(d, l, SECTION_FIELDS)` is null. */
export const sectionUnchanged = (d: DesiredSection, l: LiveSection): boolean =>
  unchangedIn(d, l, SECTION_FIELDS);

/**
 * Fields to set after a creation, without the flags a creation already leaves false (`hidden`,
 * `draft`): no call to say what is already so.
 */
export function setAfterCreation(d: Record<string, unknown>, keys: readonly string[]) {
  const fields = fieldsToSet(d, keys);
  if (!fields) return null;
  for (const key of Object.keys(fields)) if (fields[key] === false) delete fields[key];
  return Object.keys(fields).length > 0 ? fields : null;
}
