import { redirectAnswer, type EmulatedRedirect } from '../../kinds/site-redirect-emulated.js';
import { badRequest, notFound } from '../errors.js';
import { PUBLISHED_URL } from '../shapes.js';
import type { EmuSite } from '../state.js';
import type { RouteDeps } from './context.js';
import { siteOf } from './site-helpers.js';

/**
 * What the declared part of the redirect kind (src/kinds/site-redirect.ts: list, creation, update,
 * deletion and the bulk upsert) cannot serve: the resolution of one source (`GET …/redirect?source=`),
 * which needs the site's sections and site spaces for the URL it answers (today's API).
 */

const redirectsOf = (site: EmuSite): EmulatedRedirect[] =>
  (site as unknown as { redirects?: EmulatedRedirect[] }).redirects ?? [];

/** The live redirect a path matches: its own source, else the longest wildcard source above it. */
function match(
  list: EmulatedRedirect[],
  path: string,
): { redirect: EmulatedRedirect; rest: string } | undefined {
  const live = list.filter((r) => !r.draft);
  const exact = live.find((r) => r.source === path);
  if (exact) return { redirect: exact, rest: '' };
  const wild = live
    .filter((r) => r.source.endsWith('*'))
    .map((r) => ({ r, prefix: r.source.slice(0, -1) }))
    .filter(({ prefix }) => path.startsWith(prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
  return wild ? { redirect: wild.r, rest: path.slice(wild.prefix.length) } : undefined;
}

/** The published URL a destination leads to. */
function targetUrl(site: EmuSite, r: EmulatedRedirect, rest: string): string {
  const base = `${PUBLISHED_URL}/${site.id}`;
  const d = r.destination;
  let url: string;
  if (d.kind === 'external') url = d.url;
  else if (d.kind === 'site-section') {
    const section = site.sections.find((s) => s.id === d.siteSectionId);
    url = section ? `${base}/${section.path}` : base;
  } else {
    const ss = site.siteSpaces.find((s) => s.id === d.siteSpaceId);
    const section = ss?.sectionId ? site.sections.find((s) => s.id === ss.sectionId) : undefined;
    url = [base, section?.path, ss?.path].filter((x) => x !== undefined).join('/');
    if (d.kind === 'site-page') url += `/${d.pageId}`;
  }
  const suffix = r.captureWildcard ? rest.replace(/^\/?/, rest ? '/' : '') : '';
  return `${url}${suffix}`;
}

export function registerRedirects(deps: RouteDeps): void {
  deps.router.on('GET', '/orgs/:orgId/sites/:siteId/redirect', ({ params, query }) => {
    const { site } = siteOf(deps, params);
    const source = query.get('source');
    if (source === null) throw badRequest('source: is required');
    const found = match(redirectsOf(site), source);
    if (!found) throw notFound(`no redirect for ${source}`);
    return {
      status: 200,
      body: { redirect: redirectAnswer(found.redirect), target: targetUrl(site, found.redirect, found.rest) },
    };
  });
}
