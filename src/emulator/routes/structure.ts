import { externalLinkKind } from '../../kinds/external-link.js';
import type { EmulatedContext } from '../../kinds/emulated.js';
import type { EmuSite } from '../state.js';
import { APP_URL, PUBLISHED_URL } from '../shapes.js';
import { now } from '../store.js';
import type { RouteDeps } from './context.js';
import { siteOf } from './site-helpers.js';

/**
 * Today's `GET /orgs/{o}/sites/{s}/structure`: a site's navigation in one answer. With sections:
 * its sections outside groups, its groups (with their sections), then its external links; a site
 * with root site spaces only answers them (`type: siteSpaces`, where the API has no external links).
 */
export function registerStructure(deps: RouteDeps): void {
  if (deps.flavor !== 'current') return;
  const { shapes, router } = deps;
  const links = externalLinkKind.emulator!;
  router.on('GET', '/orgs/:orgId/sites/:siteId/structure', ({ params }) => {
    const { org, site } = siteOf(deps, params);
    const roots = site.siteSpaces.filter((ss) => ss.sectionId === null);
    if (site.sections.length === 0 && roots.length > 0)
      return {
        status: 200,
        body: { type: 'siteSpaces', structure: roots.map((ss) => shapes.siteSpace(org, site, ss)) },
      };
    const ctx: EmulatedContext = {
      flavor: deps.flavor,
      now,
      id: () => '',
      secret: () => '',
      org: org.id,
      site: site.id,
      urls: { api: `${deps.baseUrl()}/v1`, app: APP_URL, docs: PUBLISHED_URL },
    };
    return {
      status: 200,
      body: {
        type: 'sections',
        structure: [
          ...site.sections.filter((s) => !s.groupId).map((s) => shapes.section(org, site, s)),
          ...site.groups.map((g) => shapes.group(org, site, g)),
          ...externalLinksOf(site).map((l) => links.answer(l, ctx)),
        ],
      },
    };
  });
  // A time-limited preview of the site with its drafts (today's `getSitePublishingPreviewById`).
  router.on('GET', '/orgs/:orgId/sites/:siteId/publishing/preview', ({ params }) => {
    const { site } = siteOf(deps, params);
    return { status: 200, body: { url: `${PUBLISHED_URL}/~preview/${site.id}` } };
  });
}

/** The site's external links (a declared kind's list in the site, created by its first write). */
export const externalLinksOf = (site: EmuSite): { id: string }[] => site.externalLinks ?? [];
