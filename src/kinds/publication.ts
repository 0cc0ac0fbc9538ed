import { z } from 'zod';
import { kindDrafts } from '../diff/builder.js';
import { problem, type DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { Ref } from '../model/change.js';
import type { SiteFacet } from './value-shapes.js';
import type { ApiCall } from './types.js';
import type { KindExamples } from './examples.js';

/** Whether a site is published: publish and unpublish calls of today's API. A key of the site entry. */

export type PublicationOp =
  { type: 'publish-site'; org: string; site: Ref } | { type: 'unpublish-site'; org: string; site: Ref };

const call = (route: string) => (op: PublicationOp, r: { ref: (x: Ref) => string }) => ({
  method: 'POST' as const,
  route,
  params: { org: op.org, site: r.ref(op.site) },
  expect: [200],
});

/**
 * A site's preview with its drafts (today's `GET …/publishing/preview`): a time-limited URL a
 * reviewer opens before a staged change is promoted (src/pipeline/preview.ts links it).
 */
export const previewCall = (org: string, site: string): ApiCall => ({
  method: 'GET',
  route: '/orgs/{org}/sites/{site}/publishing/preview',
  params: { org, site },
  expect: [200],
  answer: z.looseObject({ url: z.string() }),
});

/** api.md describes no way to change it: a change is a problem there. */
function diff(
  ctx: DiffContext,
  site: SiteScope,
  siteTitle: string,
  d: boolean,
  l: boolean | null | undefined,
) {
  const drafts = kindDrafts<PublicationOp>(ctx, 'site-publication');
  const current = l ?? false;
  if (current === d) return;
  if (!ctx.caps.publish) {
    problem(
      ctx,
      `site "${siteTitle}": published can only change with ${ctx.caps.otherwise} (api.md has no publish call)`,
      'unsupported-by-api',
    );
    return;
  }
  const addr = `${site.addr}/publication`;
  drafts.update({
    address: addr,
    before: { published: current },
    after: { published: d },
    deps: [site.createKey],
    op: d
      ? { type: 'publish-site', org: ctx.org, site: site.ref }
      : { type: 'unpublish-site', org: ctx.org, site: site.ref },
  });
}

export const publicationKind: SiteFacet<
  'published',
  boolean,
  boolean,
  boolean,
  PublicationOp,
  'site-publication'
> = {
  kind: 'site-publication',
  key: 'published',
  // api.md has no publish call (`publish: false`): docs/compatibility.md lists its routes as current only.
  absentIn: ['seed'],
  config: z.boolean(),
  describe: 'Published or not (current API: publish/unpublish).',
  docs: {},
  normalize: (published) => published,
  // Part of the site's own answer, when the API has it.
  read: { fromSite: (site) => (typeof site['published'] === 'boolean' ? site['published'] : undefined) },
  diff,
  export: (l, caps) => (caps.publish && l !== undefined && l !== null ? l : undefined),
  ops: {
    'publish-site': { call: call('/orgs/{org}/sites/{site}/publish') },
    'unpublish-site': { call: call('/orgs/{org}/sites/{site}/unpublish') },
  },
  examples: {
    // api.md has no publish call: only today's API changes it.
    flavor: 'current',
    pairs: [{ config: true, seed: { published: true }, changed: false }],
  } satisfies KindExamples<boolean>,
};
