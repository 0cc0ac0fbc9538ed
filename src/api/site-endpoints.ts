import { listAll } from './paginate.js';
import { SiteSectionGroup } from '../kinds/section-group.js';
import { SiteSection } from '../kinds/site-section.js';
import { SiteSpace } from '../kinds/site-space.js';
import { Site } from '../kinds/site.js';

import { BaseClient, enc } from './base-client.js';

/** Reads of sites and everything inside them (writes are declared by the kinds, src/kinds/). */
export class SiteEndpoints extends BaseClient {
  listSites = (org: string) => listAll(this.http, `/orgs/${enc(org)}/sites`, '/orgs/{org}/sites', Site);

  protected sitePath = (org: string, site: string, rest: string) =>
    `/orgs/${enc(org)}/sites/${enc(site)}/${rest}`;
  listSections = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'sections'),
      '/orgs/{org}/sites/{site}/sections',
      SiteSection,
    );
  listSectionGroups = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'section-groups'),
      '/orgs/{org}/sites/{site}/section-groups',
      SiteSectionGroup,
    );
  listSiteSpaces = (org: string, site: string) =>
    listAll(
      this.http,
      this.sitePath(org, site, 'site-spaces'),
      '/orgs/{org}/sites/{site}/site-spaces',
      SiteSpace,
    );
}
