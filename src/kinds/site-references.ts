import { emptyList } from '../model/holey.js';
import { partsReferences } from './site-parts.js';
import type { EntryReference } from './types.js';
import type { DesiredSite, LiveSite } from './site-diff.js';

/**
 * What a site names, beside site.ts, which declares the kind: the spaces its site spaces show,
 * in the config (its `references`) and live (its `liveReferences`).
 */

/** The spaces a live site shows, in order (one list, no list per section: issue 33). */
export function liveSpaceIds(site: LiveSite): string[] {
  // `emptyList`: the proof reads a site's ids and a team's names in one loop (issue 33).
  const ids = emptyList<string>();
  for (const section of site.sections ?? []) for (const s of section.spaces) ids.push(s.space);
  for (const s of site.spaces ?? []) ids.push(s.space);
  return ids;
}

/**
 * The spaces a site's site spaces name, and what its parts name. Asked twice a plan for each of
 * tens of thousands of site spaces: one holder text per section, no intermediate arrays (decision 42).
 */
export function references(
  site: DesiredSite,
  _org?: never,
  wanted: (target: string, id: string) => boolean = () => true,
): EntryReference[] {
  const out = partsReferences(site, site.title);
  site.sections?.forEach((section, j) => {
    let holder: string | undefined;
    section.spaces.forEach((s, k) => {
      if (!wanted('space', s.space)) return;
      holder ??= `site "${site.title}" section "${section.path}"`;
      out.push({ target: 'space', id: s.space, path: ['sections', j, 'spaces', k, 'space'], holder });
    });
  });
  if (site.spaces) {
    const holder = `site "${site.title}"`;
    site.spaces.forEach((s, k) => {
      if (wanted('space', s.space))
        out.push({ target: 'space', id: s.space, path: ['spaces', k, 'space'], holder });
    });
  }
  return out;
}
