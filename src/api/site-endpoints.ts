import { listAll } from './paginate.js';
import { AdaptiveSchema, ShareLink, Site, SiteSection, SiteSectionGroup, SiteSpace } from './schema.js';

import { BaseClient, DELETED, enc } from './base-client.js';

/** Sites and everything inside them. */
export class SiteEndpoints extends BaseClient {
  // Sites
  listSites = (org: string) => listAll(this.http, `/orgs/${enc(org)}/sites`, '/orgs/{org}/sites', Site);
  createSite = (org: string, body: Record<string, unknown>) =>
    this.call('POST', `/orgs/${enc(org)}/sites`, '/orgs/{org}/sites', [201], Site, body, true);
  updateSite = (org: string, site: string, body: Record<string, unknown>) =>
    this.call('PATCH', `/orgs/${enc(org)}/sites/${enc(site)}`, '/orgs/{org}/sites/{site}', [200], Site, body);
  deleteSite = (org: string, site: string) =>
    this.call('DELETE', `/orgs/${enc(org)}/sites/${enc(site)}`, '/orgs/{org}/sites/{site}', DELETED, null);

  getAdaptiveSchema = (org: string, site: string) =>
    this.call(
      'GET',
      `/orgs/${enc(org)}/sites/${enc(site)}/adaptive-schema`,
      '/orgs/{org}/sites/{site}/adaptive-schema',
      [200],
      AdaptiveSchema,
    );
  putAdaptiveSchema = (org: string, site: string, jsonSchema: Record<string, unknown>) =>
    this.call(
      'PUT',
      `/orgs/${enc(org)}/sites/${enc(site)}/adaptive-schema`,
      '/orgs/{org}/sites/{site}/adaptive-schema',
      [200],
      null,
      { jsonSchema },
    );
  publishSite = (org: string, site: string) =>
    this.call(
      'POST',
      `/orgs/${enc(org)}/sites/${enc(site)}/publish`,
      '/orgs/{org}/sites/{site}/publish',
      [200],
      null,
    );
  unpublishSite = (org: string, site: string) =>
    this.call(
      'POST',
      `/orgs/${enc(org)}/sites/${enc(site)}/unpublish`,
      '/orgs/{org}/sites/{site}/unpublish',
      [200],
      null,
    );
  /** Today's API: one call orders any item of a site's structure. */
  sortStructure = (org: string, site: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      `/orgs/${enc(org)}/sites/${enc(site)}/structure/sort`,
      '/orgs/{org}/sites/{site}/structure/sort',
      [200, 204],
      null,
      body,
    );

  // Sections
  protected sitePath = (org: string, site: string, rest: string) =>
    `/orgs/${enc(org)}/sites/${enc(site)}/${rest}`;
  listSections = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'sections'),
      '/orgs/{org}/sites/{site}/sections',
      SiteSection,
    );
  createSection = (org: string, site: string, body: Record<string, unknown>) =>
    this.call(
      'POST',
      this.sitePath(org, site, 'sections'),
      '/orgs/{org}/sites/{site}/sections',
      [201],
      SiteSection,
      body,
      true,
    );
  updateSection = (org: string, site: string, section: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      this.sitePath(org, site, `sections/${enc(section)}`),
      '/orgs/{org}/sites/{site}/sections/{section}',
      [200, 204],
      null,
      body,
    );
  deleteSection = (org: string, site: string, section: string) =>
    this.call(
      'DELETE',
      this.sitePath(org, site, `sections/${enc(section)}`),
      '/orgs/{org}/sites/{site}/sections/{section}',
      DELETED,
      null,
    );
  moveSection = (org: string, site: string, section: string, position: unknown) =>
    this.call(
      'POST',
      this.sitePath(org, site, `sections/${enc(section)}/move`),
      '/orgs/{org}/sites/{site}/sections/{section}/move',
      [200, 204],
      null,
      { position },
    );

  // Section groups
  listSectionGroups = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'section-groups'),
      '/orgs/{org}/sites/{site}/section-groups',
      SiteSectionGroup,
    );
  createSectionGroup = (org: string, site: string, body: Record<string, unknown>) =>
    this.call(
      'POST',
      this.sitePath(org, site, 'section-groups'),
      '/orgs/{org}/sites/{site}/section-groups',
      [201],
      SiteSectionGroup,
      body,
      true,
    );
  updateSectionGroup = (org: string, site: string, group: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      this.sitePath(org, site, `section-groups/${enc(group)}`),
      '/orgs/{org}/sites/{site}/section-groups/{group}',
      [200, 204],
      null,
      body,
    );
  deleteSectionGroup = (org: string, site: string, group: string) =>
    this.call(
      'DELETE',
      this.sitePath(org, site, `section-groups/${enc(group)}`),
      '/orgs/{org}/sites/{site}/section-groups/{group}',
      DELETED,
      null,
    );
  moveSectionGroup = (org: string, site: string, group: string, position: unknown) =>
    this.call(
      'POST',
      this.sitePath(org, site, `section-groups/${enc(group)}/move`),
      '/orgs/{org}/sites/{site}/section-groups/{group}/move',
      [200, 204],
      null,
      { position },
    );
  addGroupSection = (org: string, site: string, group: string, sectionId: string) =>
    this.call(
      'POST',
      this.sitePath(org, site, `section-groups/${enc(group)}/sections`),
      '/orgs/{org}/sites/{site}/section-groups/{group}/sections',
      [200, 201],
      null,
      { sectionId },
    );
  removeGroupSection = (org: string, site: string, group: string, section: string) =>
    this.call(
      'DELETE',
      this.sitePath(org, site, `section-groups/${enc(group)}/sections/${enc(section)}`),
      '/orgs/{org}/sites/{site}/section-groups/{group}/sections/{section}',
      DELETED,
      null,
    );

  // Site spaces
  listSiteSpaces = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'site-spaces'),
      '/orgs/{org}/sites/{site}/site-spaces',
      SiteSpace,
    );
  createSiteSpace = (org: string, site: string, body: Record<string, unknown>) =>
    this.call(
      'POST',
      this.sitePath(org, site, 'site-spaces'),
      '/orgs/{org}/sites/{site}/site-spaces',
      [201],
      SiteSpace,
      body,
      true,
    );
  updateSiteSpace = (org: string, site: string, siteSpace: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      this.sitePath(org, site, `site-spaces/${enc(siteSpace)}`),
      '/orgs/{org}/sites/{site}/site-spaces/{siteSpace}',
      [200, 204],
      null,
      body,
    );
  deleteSiteSpace = (org: string, site: string, siteSpace: string) =>
    this.call(
      'DELETE',
      this.sitePath(org, site, `site-spaces/${enc(siteSpace)}`),
      '/orgs/{org}/sites/{site}/site-spaces/{siteSpace}',
      DELETED,
      null,
    );
  moveSiteSpace = (org: string, site: string, siteSpace: string, position: unknown) =>
    this.call(
      'POST',
      this.sitePath(org, site, `site-spaces/${enc(siteSpace)}/move`),
      '/orgs/{org}/sites/{site}/site-spaces/{siteSpace}/move',
      [200, 204],
      null,
      { position },
    );

  // Share links
  listShareLinks = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'share-links'),
      '/orgs/{org}/sites/{site}/share-links',
      ShareLink,
    );
  createShareLink = (org: string, site: string, name: string) =>
    this.call(
      'POST',
      this.sitePath(org, site, 'share-links'),
      '/orgs/{org}/sites/{site}/share-links',
      [201],
      ShareLink,
      { name },
      true,
    );
  updateShareLink = (org: string, site: string, link: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      this.sitePath(org, site, `share-links/${enc(link)}`),
      '/orgs/{org}/sites/{site}/share-links/{link}',
      [200],
      null,
      body,
    );
  deleteShareLink = (org: string, site: string, link: string) =>
    this.call(
      'DELETE',
      this.sitePath(org, site, `share-links/${enc(link)}`),
      '/orgs/{org}/sites/{site}/share-links/{link}',
      DELETED,
      null,
    );
}
