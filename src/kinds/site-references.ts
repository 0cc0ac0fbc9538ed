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
  // Indexed loops: a closure per section (16,600 on a request-heavy organization) was made for
  // the proof's walk, which keeps none of their site spaces (issue 33).
  const sections = site.sections;
  if (sections !== undefined)
    for (let j = 0; j < sections.length; j += 1) {
      const section = sections[j]!;
      const spaces = section.spaces;
      let holder: string | undefined;
      for (let k = 0; k < spaces.length; k += 1) {
        const space = spaces[k]!.space;
        if (!wanted('space', space)) continue;
        holder ??= `site "${site.title}" section "${section.path}"`;
        out.push({ target: 'space', id: space, path: ['sections', j, 'spaces', k, 'space'], holder });
      }
    }
  if (site.spaces) {
    const holder = `site "${site.title}"`;
    site.spaces.forEach((s, k) => {
      if (wanted('space', s.space))
        out.push({ target: 'space', id: s.space, path: ['spaces', k, 'space'], holder });
    });
  }
  return out;
}
