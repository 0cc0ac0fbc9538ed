import { User } from './schema.js';
import { BaseClient } from './base-client.js';

export type { ClientOptions } from './base-client.js';

/**
 * The typed API: one method per endpoint docsync uses. Reads go through list endpoints only.
 * All calls share one HttpClient, so one queue and one rate budget.
 */ export class ApiClient extends BaseClient {
  currentUser = () => this.call('GET', '/user', '/user', [200], User);
}
