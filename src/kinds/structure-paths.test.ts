import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../api/capabilities.js';
import type { DiffContext } from '../diff/context.js';
import { createdRef, DraftSet } from '../diff/draft.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiFlavor } from '../model/kinds.js';
import { diffParts } from './site-parts.js';

const context = (flavor: ApiFlavor): DiffContext => ({
  org: 'org_t',
  drafts: new DraftSet(),
  unmanaged: [],
  problems: [],
  prune: true,
  pruneMembers: false,
  minAdmins: 1,
  managedLive: { count: 0 },
  dependedOn: new Map(),
  self: null,
  siteRefs: new Map(),
  teamRefs: new Map(),
  caps: capabilitiesOf(flavor),
  warnings: [],
  duplicates: [],
  brokenLinks: 'redirect',
  links: { planned: [], broken: [] },
});

/** One new site of one section with one site space, diffed in `flavor`. */
function diffedSite(flavor: ApiFlavor): SiteScope {
  const site: SiteScope = {
    addr: 'org_t/sites/Docs',
    ref: createdRef('create:org_t/sites/Docs'),
    createKey: 'create:org_t/sites/Docs',
    patch: { before: {}, after: {}, body: {}, deps: [] },
  };
  diffParts(
    context(flavor),
    site,
    'Docs',
    { sections: [{ path: 'guide', spaces: [{ space: 'Guide', path: 'start' }] }] },
    undefined,
  );
  return site;
}

describe("a site's recorded paths (decision 42, sixth pass)", () => {
  it('are made where the redirects read them (the current API), as a plain value', () => {
    const site = diffedSite('current');
    expect(Object.getOwnPropertyDescriptor(site, 'paths')?.get).toBeUndefined();
    expect([...(site.paths?.after.keys() ?? [])]).toEqual(['/guide', '/guide/start']);
  });

  it('are not made where the API has no redirects (seed): nothing keeps the structure alive', () => {
    const site = diffedSite('seed');
    expect(Object.getOwnPropertyDescriptor(site, 'paths')).toBeUndefined();
    expect(site.paths).toBeUndefined();
  });
});
