import { z } from 'zod';
import { StructureTarget } from './site-section.js';

/** A site redirect in the API's words, which the kind (site-redirect.ts) and its emulator share. */

/** The API's pattern of a source path (SiteRedirectSourcePath). */
const SOURCE =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const Source = z
  .string()
  .max(512)
  .regex(SOURCE, 'must be a path such as /old-guides (a trailing * or /* also matches what is below it)');

const External = z.looseObject({ kind: z.literal('external'), url: z.string() });
export const LiveDestination = z.union([...StructureTarget.options, External]);
export type LiveDestination = z.infer<typeof LiveDestination>;

export const LIST = '/orgs/{org}/sites/{site}/redirects';
export const ROUTE = '/orgs/{org}/sites/{site}/redirects/{redirect}';
/** The bulk call takes at most this many redirects. */
export const BULK_MAX = 500;
