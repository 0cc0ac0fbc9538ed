import { describe, expect, it } from 'vitest';
import { siteKind, type DesiredSite, type LiveSite } from './site.js';
import { exportStructure, type LiveSiteSpace, type LiveStructure } from './site-structure.js';

const ss = (id: string, space: string, customization?: Record<string, unknown>): LiveSiteSpace => ({
  id,
  space,
  path: space,
  condition: null,
  default: false,
  draft: false,
  hidden: false,
  pageId: null,
  ...(customization ? { customization } : {}),
});

const liveSite = (structure: LiveStructure): LiveSite =>
  ({
    id: 's1',
    title: 'Docs',
    visibility: 'public',
    basename: null,
    agentsContext: null,
    adaptiveContent: null,
    proxy: null,
    ...structure,
  }) as LiveSite;

const section = (spaces: LiveSiteSpace[]) => ({
  id: 'sec1',
  path: 'guides',
  title: 'Guides',
  icon: null,
  description: null,
  condition: null,
  default: false,
  draft: false,
  localizedTitle: {},
  localizedDescription: {},
  group: null,
  spaces,
});

/** The site spaces whose overrides are read once the structure's reads named them (undefined: export). */
function overrideReads(site: LiveSite, desired: DesiredSite[] | undefined): string[] {
  const children = siteKind.reads[0]!.children!;
  const wants = desired ? children.prepare(desired as never[]) : undefined;
  return children.reads
    .filter((c) => !wants || c.wanted(site, wants))
    .flatMap((c) => c.then?.(site, wants) ?? [])
    .map((c) => ('call' in c ? String(c.call('org', site).params.siteSpace) : 'list'));
}

describe("a site space's customization overrides: which are read", () => {
  const site = liveSite({ sections: [section([ss('ss1', 'space_1'), ss('ss2', 'space_2')])] });
  const cases: { name: string; desired: DesiredSite[] | undefined; site: LiveSite; reads: string[] }[] = [
    {
      name: 'no entry gives customization: none',
      desired: [{ title: 'Docs', sections: [{ path: 'guides', spaces: [{ space: 'space_1' }] }] }],
      site,
      reads: [],
    },
    {
      name: 'only the site space whose entry gives it',
      desired: [
        {
          title: 'Docs',
          sections: [
            {
              path: 'guides',
              spaces: [{ space: 'space_1' }, { space: 'space_2', customization: { title: 'V2' } }],
            },
          ],
        },
      ],
      site,
      reads: ['ss2'],
    },
    {
      name: 'a root site space',
      desired: [{ title: 'Docs', spaces: [{ space: 'space_3', customization: { title: 'V3' } }] }],
      site: liveSite({ spaces: [ss('ss3', 'space_3')] }),
      reads: ['ss3'],
    },
    {
      name: 'an entry for a space not live yet (the plan creates it): nothing to read',
      desired: [{ title: 'Docs', spaces: [{ space: 'space_9', customization: { title: 'V9' } }] }],
      site: liveSite({ spaces: [ss('ss3', 'space_3')] }),
      reads: [],
    },
    {
      name: 'a site the config does not describe: none',
      desired: [{ title: 'Other', spaces: [{ space: 'space_3', customization: { title: 'V3' } }] }],
      site: liveSite({ spaces: [ss('ss3', 'space_3')] }),
      reads: [],
    },
    { name: 'export: every site space', desired: undefined, site, reads: ['ss1', 'ss2'] },
  ];
  it.each(cases)('$name', ({ desired, site: s, reads }) => {
    expect(overrideReads(s, desired)).toEqual(reads);
  });
});

describe("a site space's customization overrides: export", () => {
  const siteDoc = { styling: { theme: 'clean', primaryColor: { light: '#346DDB' } }, title: 'Docs' };
  const cases: { name: string; live: Record<string, unknown> | undefined; exported: unknown }[] = [
    { name: 'not read: nothing', live: undefined, exported: undefined },
    { name: 'the same as the site: no overrides', live: siteDoc, exported: undefined },
    {
      name: 'the keys that differ from the site only',
      live: { ...siteDoc, styling: { theme: 'bold', primaryColor: { light: '#346DDB' } } },
      exported: { styling: { theme: 'bold' } },
    },
    {
      name: 'a key the site lacks',
      live: { ...siteDoc, trademark: { enabled: false } },
      exported: { trademark: { enabled: false } },
    },
  ];
  it.each(cases)('$name', ({ live, exported }) => {
    const out = exportStructure({ spaces: [ss('ss1', 'space_1', live)] }, 'Docs', [], siteDoc);
    expect(out.spaces![0]!.customization).toEqual(exported);
  });
});
