import type { DiffContext } from '../diff/context.js';
import type { SiteScope } from '../diff/site-scope.js';
import type { DesiredGrant, LiveGrant } from '../model/grants.js';
import {
  ACCESS_DESCRIBE,
  AccessConfig,
  exportAccess,
  grantLists,
  grantOps,
  grantReferences,
  liveGrants,
  normalizeAccess,
  type GrantOp,
  type GrantRoutes,
} from './grants.js';
import { diffGrants } from './grants-diff.js';
import type { SiteFacet } from './value-shapes.js';
import type { KindExamples } from './examples.js';

/** The grants of a site: a key of its entry (`sites[].access`), today's API only. */

export type SiteGrantOp = GrantOp<'site'>;

const ROUTES: GrantRoutes = {
  invite: '/orgs/{org}/sites/{holder}/permissions',
  teams: '/orgs/{org}/sites/{holder}/permissions/teams',
  team: '/orgs/{org}/sites/{holder}/permissions/teams/{team}',
  users: '/orgs/{org}/sites/{holder}/permissions/users',
  user: '/orgs/{org}/sites/{holder}/permissions/users/{user}',
};

export const siteGrantKind: SiteFacet<
  'access',
  AccessConfig,
  DesiredGrant[],
  LiveGrant[],
  SiteGrantOp,
  'site-grant'
> = {
  kind: 'site-grant',
  key: 'access',
  config: AccessConfig,
  describe: ACCESS_DESCRIBE,
  docs: {
    'sites[].access[]': {
      title: 'site grants',
      identity: '`team` (title) or `member` (e-mail) within the site',
      notes: [
        'Today’s API only. Each team or member listed gets its role on the site (a site created by the same plan is granted after its creation, a team after its creation and membership); a live grant the list omits is revoked when pruning, except the token’s own. Two lists are read per site whose `access` is given.',
      ],
    },
  },
  normalize: normalizeAccess,
  references: (grants, siteTitle) => grantReferences(grants, `site "${siteTitle}"`),
  absentIn: ['seed'],
  absent: (caps) =>
    `grants (access) are not in this API (--api-flavor ${caps.flavor}): remove sites[].access or use --api-flavor current`,
  read: {
    lists: (org, site) => grantLists(ROUTES, org, site),
    live: (items: unknown[]) => liveGrants([items]),
  },
  diff: (ctx: DiffContext, site: SiteScope, siteTitle: string, desired, live) =>
    diffGrants(ctx, 'site-grant', {
      target: 'site',
      label: `site "${siteTitle}"`,
      ref: site.ref,
      address: site.addr,
      createKey: site.createKey,
      desired,
      live: live ?? [],
    }),
  export: (live) => (live && live.length > 0 ? exportAccess(live) : undefined),
  ops: grantOps('site', ROUTES),
  examples: {
    flavor: 'current',
    pairs: [
      {
        config: [{ team: 'Docs Writers', role: 'read' }],
        seed: { access: [{ team: 'Docs Writers', role: 'read' }] },
        changed: [{ team: 'Docs Writers', role: 'edit' }],
      },
    ],
    needs: { config: { teams: [{ title: 'Docs Writers' }] }, seed: { teams: [{ title: 'Docs Writers' }] } },
  } satisfies KindExamples<AccessConfig>,
};
