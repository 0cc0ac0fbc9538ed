import { randomBytes } from 'node:crypto';
import { paginate } from '../paginate.js';
import { findById, newId, now } from '../store.js';
import { asBody, optBoolean, optString, reqString } from '../validate.js';
import type { RouteDeps } from './context.js';
import { siteOf } from './site-helpers.js';

export function registerShareLinks(deps: RouteDeps): void {
  const { shapes, router } = deps;
  const base = '/orgs/:orgId/sites/:siteId/share-links';
  router.on('GET', base, ({ params, query }) => {
    const { site } = siteOf(deps, params);
    return {
      status: 200,
      body: paginate(site.shareLinks, query, (l) => shapes.shareLink(site, l)),
    };
  });
  router.on('POST', base, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    const name = reqString(asBody(body, true), 'name', { max: 50 });
    const link = {
      id: newId('sl'),
      name,
      active: true,
      createdAt: now(),
      token: randomBytes(12).toString('hex'),
    };
    site.shareLinks.push(link);
    return { status: 201, body: shapes.shareLink(site, link) };
  });
  router.on('PATCH', `${base}/:linkId`, ({ params, body }) => {
    const { site } = siteOf(deps, params);
    const link = findById(site.shareLinks, params.linkId!, 'share link');
    const b = asBody(body);
    const name = optString(b, 'name', { max: 50 });
    const active = optBoolean(b, 'active');
    if (name !== undefined && name !== null) link.name = name;
    if (active !== undefined) link.active = active;
    return { status: 200, body: shapes.shareLink(site, link) };
  });
  router.on('DELETE', `${base}/:linkId`, ({ params }) => {
    const { site } = siteOf(deps, params);
    const link = findById(site.shareLinks, params.linkId!, 'share link');
    site.shareLinks.splice(site.shareLinks.indexOf(link), 1);
    return { status: 205 };
  });
}
