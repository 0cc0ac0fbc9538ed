import { z } from 'zod';
import { nullish } from '../model/schema.js';
import { agentsContexts, visibilities } from '../model/kinds.js';
import { partsFromSite } from './site-parts.js';
import type { EntryOf } from './site-structure.js';
import type { DesiredSite, LiveSite } from './site-diff.js';

/**
 * A site as read, beside site.ts, which declares the kind: the API's answer, the live site made
 * from it, and the pairing of live sites with config entries that the reads below a site use.
 */

/**
 * Sites of an organization, by title (or pinned id), with everything inside them (site-parts.ts).
 * The API's answer for one (lenient: unknown fields allowed).
 */
export const Site = z.looseObject({
  id: z.string(),
  title: z.string(),
  visibility: z.enum(visibilities),
  basename: nullish(z.string()),
  agentsContext: nullish(z.enum(agentsContexts)),
  adaptiveContent: nullish(z.looseObject({ enabled: z.boolean() })),
  proxy: nullish(z.looseObject({ origin: z.string() })),
  defaultLevel: nullish(z.string()),
});
export type Site = z.infer<typeof Site>;

/** Strip the scheme the API puts on `proxy.origin`, giving the config's `company.com/docs` form. */
function proxyFromOrigin(origin: string): string {
  return origin.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
}

export const liveSite = (site: Site): LiveSite => ({
  id: site.id,
  title: site.title,
  visibility: site.visibility,
  basename: site.basename ?? null,
  agentsContext: site.agentsContext ?? null,
  adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : null,
  proxy: site.proxy ? proxyFromOrigin(site.proxy.origin) : null,
  ...(site.defaultLevel !== undefined ? { defaultLevel: site.defaultLevel } : {}),
  ...partsFromSite(site),
});

/** Which config entry each live site pairs with: by pin, by title, or by an earlier title (`previously`). */
export function pairing(desired: DesiredSite[]): EntryOf<LiveSite, DesiredSite> {
  const byId = new Map<string, DesiredSite>();
  const byTitle = new Map<string, DesiredSite>();
  const byEarlier = new Map<string, DesiredSite>();
  for (const d of desired)
    if (d.id) byId.set(d.id, d);
    else {
      if (!byTitle.has(d.title)) byTitle.set(d.title, d);
      for (const p of d.previously ?? []) if (!byEarlier.has(p)) byEarlier.set(p, d);
    }
  return (s) => byId.get(s.id) ?? byTitle.get(s.title) ?? byEarlier.get(s.title);
}
