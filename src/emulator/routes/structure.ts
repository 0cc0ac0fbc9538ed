import { levelOf } from '../nav-order.js';
import { PUBLISHED_URL } from '../shapes.js';
import type { RouteDeps } from './context.js';
import { siteOf } from './site-helpers.js';

/**
 * Today's `GET /orgs/{o}/sites/{s}/structure`: a site's navigation in one answer. With sections:
 * the items of its root (sections, groups with their nested children, external links) in the
 * navigation's order (src/emulator/nav-order.ts); a site with root site spaces only answers them
 * (`type: siteSpaces`, where the API has no external links).
 */
export function registerStructure(deps: RouteDeps): void {
  if (deps.flavor !== 'current') return;
  const { shapes, router } = deps;
  router.on('GET', '/orgs/:orgId/sites/:siteId/structure', ({ params }) => {
    const { org, site } = siteOf(deps, params);
    const roots = site.siteSpaces.filter((ss) => ss.sectionId === null);
    if (site.sections.length === 0 && roots.length > 0)
      return {
        status: 200,
        body: { type: 'siteSpaces', structure: roots.map((ss) => shapes.siteSpace(org, site, ss)) },
      };
    return {
      status: 200,
      body: {
        type: 'sections',
        structure: levelOf(site, null).map((item) => shapes.navItem(org, site, item)),
      },
    };
  });
  // A time-limited preview of the site with its drafts (today's `getSitePublishingPreviewById`).
  router.on('GET', '/orgs/:orgId/sites/:siteId/publishing/preview', ({ params }) => {
    const { site } = siteOf(deps, params);
    return { status: 200, body: { url: `${PUBLISHED_URL}/~preview/${site.id}` } };
  });
}
