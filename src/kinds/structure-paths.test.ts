import { describe, expect, it } from 'vitest';
import type { DiffContext } from '../diff/context.js';
import { createdRef } from '../diff/draft.js';
import { diffContext } from '../../test/helpers/diff-context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { ApiFlavor } from '../model/kinds.js';
import { diffParts } from './site-parts.js';

const context = (flavor: ApiFlavor): DiffContext => diffContext({ flavor });

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
