import { listAll } from './paginate.js';
import { Collection, Organization, Space, User } from './schema.js';

import { enc } from './base-client.js';
import { SiteEndpoints } from './site-endpoints.js';

export type { ClientOptions } from './base-client.js';

/**
 * The typed API: one method per endpoint docsync uses. Reads go through list endpoints only.
 * All calls share one HttpClient, so one queue and one rate budget.
 */ export class ApiClient extends SiteEndpoints {
  // Organizations
  listOrganizations = () => listAll(this.http, '/orgs', '/orgs', Organization);

  currentUser = () => this.call('GET', '/user', '/user', [200], User);

  // Collections and spaces
  listCollections = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/collections`, '/orgs/{org}/collections', Collection, {
      nested: true,
    });
  getSpace = (id: string) => this.call('GET', `/spaces/${enc(id)}`, '/spaces/{space}', [200], Space);
}
