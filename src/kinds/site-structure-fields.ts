import {
  type DesiredSection,
  type DesiredSiteSpace,
  type LiveSection,
  type LiveSiteSpace,
} from './site-section.js';
import { fieldsToSet, same } from '../diff/draft.js';

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
 * Whether a field given is the live value (`changedFields` then finds nothing): most fields of
 * most entries. `===` first; a value that is not (a localized text: an object) is compared as
 * `changedFields` compares it, so that these checks are exactly `changedFields(…) === null` (an
 * unchanged structure's fast path, site-structure-kept.ts, relies on it).
 */
const keeps = (want: unknown, have: unknown) =>
  want === undefined || want === (have ?? null) || same(want, have ?? null);

/**
 * Whether `changedFields(ds, ss, SITE_SPACE_FIELDS)` is null. Each field read by name: the keys
 * walked from the list were keyed loads on every site space of every plan, megamorphic and
 * unoptimizable (issue 33, fourteenth pass). site-structure-fields.test.ts sees each field of
 * the list here.
 */
export const siteSpaceUnchanged = (ds: DesiredSiteSpace, ss: LiveSiteSpace): boolean =>
  keeps(ds.path, ss.path) &&
  keeps(ds.condition, ss.condition) &&
  keeps(ds.draft, ss.draft) &&
  keeps(ds.hidden, ss.hidden) &&
  keeps(ds.pageId, ss.pageId);

/** Whether `changedFields(d, l, SECTION_FIELDS)` is null (by name, as `siteSpaceUnchanged`). */
export const sectionUnchanged = (d: DesiredSection, l: LiveSection): boolean =>
  keeps(d.title, l.title) &&
  keeps(d.icon, l.icon) &&
  keeps(d.description, l.description) &&
  keeps(d.condition, l.condition) &&
  keeps(d.path, l.path) &&
  keeps(d.draft, l.draft) &&
  keeps(d.localizedTitle, l.localizedTitle) &&
  keeps(d.localizedDescription, l.localizedDescription);

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
