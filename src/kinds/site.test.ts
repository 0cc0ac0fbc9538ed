import { describe, expect, it } from 'vitest';
import { siteKind, type DesiredSite, type LiveSite } from './site.js';

const live = (id: string, title: string): LiveSite => ({
  id,
  title,
  visibility: 'public',
  basename: null,
  agentsContext: null,
  adaptiveContent: null,
  proxy: null,
});

/** The last segment of each route read below a live site for the config `desired` (as `readLive` reads). */
function readsBelow(site: LiveSite, desired: DesiredSite[]): string[] {
  const children = siteKind.reads[0]!.children!;
  const wants = children.prepare(desired as never[]);
  return children.reads
    .filter((c) => c.wanted(site, wants))
    .map((c) => ('list' in c ? c.list('org', site) : c.call('org', site)).route.split('/').at(-1)!);
}

describe('reads below a site', () => {
  const cases: { name: string; desired: DesiredSite[]; site: LiveSite; reads: string[] }[] = [
    {
      name: 'a site the config does not describe: nothing below it',
      desired: [{ title: 'Other', sections: [] }],
      site: live('s1', 'Docs'),
      reads: [],
    },
    {
      name: 'by title: sections only',
      desired: [{ title: 'Docs', sections: [] }],
      site: live('s1', 'Docs'),
      reads: ['sections'],
    },
    {
      name: 'groups need the sections (memberships are their fields)',
      desired: [{ title: 'Docs', sectionGroups: [] }],
      site: live('s1', 'Docs'),
      reads: ['sections', 'section-groups'],
    },
    {
      name: 'by pinned id, under another title: root spaces and share links',
      desired: [{ title: 'Renamed', id: 's1', spaces: [], shareLinks: [] }],
      site: live('s1', 'Docs'),
      reads: ['site-spaces', 'share-links'],
    },
    {
      name: 'by an earlier title (previously): the adaptive schema',
      desired: [{ title: 'New', previously: ['Docs'], adaptiveSchema: { type: 'object' } as never }],
      site: live('s1', 'Docs'),
      reads: ['adaptive-schema'],
    },
    {
      name: 'a pin wins over a title: the entry titled like the site is pinned elsewhere',
      desired: [{ title: 'Docs', id: 's2', sections: [] }],
      site: live('s1', 'Docs'),
      reads: [],
    },
  ];
  it.each(cases)('$name', ({ desired, site, reads }) => {
    expect(readsBelow(site, desired)).toEqual(reads);
  });
});
