import { listAll } from './paginate.js';
import {
  Collection,
  CustomField,
  Member,
  OpenApiSpec,
  Organization,
  SamlProvider,
  Space,
  Translation,
  TranslationSettings,
  User,
  SpaceCustomFields,
  Team,
  TeamMember,
} from './schema.js';

import { DELETED, enc } from './base-client.js';
import { SiteEndpoints } from './site-endpoints.js';

export type { ClientOptions } from './base-client.js';

/**
 * The typed API: one method per endpoint docsync uses. Reads go through list endpoints only.
 * All calls share one HttpClient, so one queue and one rate budget.
 */ export class ApiClient extends SiteEndpoints {
  // Organizations
  getOrganization = (org: string) =>
    this.call('GET', `/orgs/${enc(org)}`, '/orgs/{org}', [200], Organization);
  listOrganizations = () => listAll(this.http, '/orgs', '/orgs', Organization);

  updateOrganization = (org: string, body: Record<string, unknown>) =>
    this.call('PATCH', `/orgs/${enc(org)}`, '/orgs/{org}', [200], Organization, body);
  currentUser = () => this.call('GET', '/user', '/user', [200], User);

  // Members
  listMembers = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/members`, '/orgs/{org}/members', Member);
  updateMember = (org: string, user: string, role: string | null) =>
    this.call(
      'PATCH',
      `/orgs/${enc(org)}/members/${enc(user)}`,
      '/orgs/{org}/members/{user}',
      [200],
      Member,
      { role },
    );
  removeMember = (org: string, user: string) =>
    this.call(
      'DELETE',
      `/orgs/${enc(org)}/members/${enc(user)}`,
      '/orgs/{org}/members/{user}',
      DELETED,
      null,
    );

  // Collections and spaces
  listCollections = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/collections`, '/orgs/{org}/collections', Collection, {
      nested: true,
    });
  createCollection = (org: string, body: Record<string, unknown>) =>
    this.call(
      'POST',
      `/orgs/${enc(org)}/collections`,
      '/orgs/{org}/collections',
      [201],
      Collection,
      body,
      true,
    );
  updateCollection = (id: string, body: Record<string, unknown>) =>
    this.call('PATCH', `/collections/${enc(id)}`, '/collections/{collection}', [200], Collection, body);
  moveCollection = (id: string, parent: string | null) =>
    this.call('POST', `/collections/${enc(id)}/move`, '/collections/{collection}/move', [200], null, {
      parent,
    });
  deleteCollection = (id: string) =>
    this.call('DELETE', `/collections/${enc(id)}`, '/collections/{collection}', DELETED, null);
  getSpace = (id: string) => this.call('GET', `/spaces/${enc(id)}`, '/spaces/{space}', [200], Space);
  updateSpace = (id: string, body: Record<string, unknown>) =>
    this.call('PATCH', `/spaces/${enc(id)}`, '/spaces/{space}', [200], Space, body);
  moveSpace = (id: string, parent: string | null) =>
    this.call('POST', `/spaces/${enc(id)}/move`, '/spaces/{space}/move', [200], null, { parent });

  // OpenAPI specs
  listOpenApiSpecs = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/openapi`, '/orgs/{org}/openapi', OpenApiSpec);
  createOpenApiSpec = (org: string, slug: string, url: string) =>
    this.call(
      'POST',
      `/orgs/${enc(org)}/openapi`,
      '/orgs/{org}/openapi',
      [201],
      OpenApiSpec,
      { slug, source: { url } },
      true,
    );
  putOpenApiSpec = (org: string, slug: string, url: string) =>
    this.call(
      'PUT',
      `/orgs/${enc(org)}/openapi/${enc(slug)}`,
      '/orgs/{org}/openapi/{slug}',
      [200, 201],
      OpenApiSpec,
      { source: { url } },
    );
  deleteOpenApiSpec = (org: string, slug: string) =>
    this.call(
      'DELETE',
      `/orgs/${enc(org)}/openapi/${enc(slug)}`,
      '/orgs/{org}/openapi/{slug}',
      DELETED,
      null,
    );

  // SAML providers
  listSamlProviders = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/saml`, '/orgs/{org}/saml', SamlProvider);
  createSamlProvider = (org: string, body: Record<string, unknown>) =>
    this.call('POST', `/orgs/${enc(org)}/saml`, '/orgs/{org}/saml', [201], SamlProvider, body, true);
  updateSamlProvider = (org: string, id: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      `/orgs/${enc(org)}/saml/${enc(id)}`,
      '/orgs/{org}/saml/{provider}',
      [200],
      SamlProvider,
      body,
    );
  deleteSamlProvider = (org: string, id: string) =>
    this.call('DELETE', `/orgs/${enc(org)}/saml/${enc(id)}`, '/orgs/{org}/saml/{provider}', DELETED, null);

  /** Today's translations (current flavor; `listTranslations` is api.md's translation settings). */
  listSpaceTranslations = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/translations`, '/orgs/{org}/translations', Translation);

  // Translation settings
  listTranslations = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/translations`, '/orgs/{org}/translations', TranslationSettings);
  createTranslation = (org: string, title: string) =>
    this.call(
      'POST',
      `/orgs/${enc(org)}/translations`,
      '/orgs/{org}/translations',
      [201],
      TranslationSettings,
      { title },
      true,
    );
  updateTranslation = (org: string, id: string, title: string) =>
    this.call(
      'PUT',
      `/orgs/${enc(org)}/translations/${enc(id)}`,
      '/orgs/{org}/translations/{translation}',
      [200],
      TranslationSettings,
      { title },
    );
  deleteTranslation = (org: string, id: string) =>
    this.call(
      'DELETE',
      `/orgs/${enc(org)}/translations/${enc(id)}`,
      '/orgs/{org}/translations/{translation}',
      DELETED,
      null,
    );

  // Custom fields
  listCustomFields = (org: string) =>
    listAll(this.http, `/orgs/${enc(org)}/custom-fields`, '/orgs/{org}/custom-fields', CustomField);
  createCustomField = (org: string, body: Record<string, unknown>) =>
    this.call(
      'POST',
      `/orgs/${enc(org)}/custom-fields`,
      '/orgs/{org}/custom-fields',
      [201],
      CustomField,
      body,
      true,
    );
  updateCustomField = (org: string, name: string, body: Record<string, unknown>) =>
    this.call(
      'PATCH',
      `/orgs/${enc(org)}/custom-fields/${enc(name)}`,
      '/orgs/{org}/custom-fields/{name}',
      [200],
      CustomField,
      body,
    );
  deleteCustomField = (org: string, name: string) =>
    this.call(
      'DELETE',
      `/orgs/${enc(org)}/custom-fields/${enc(name)}`,
      '/orgs/{org}/custom-fields/{name}',
      DELETED,
      null,
    );
  getSpaceCustomFields = (space: string) =>
    this.call(
      'GET',
      `/spaces/${enc(space)}/custom-fields`,
      '/spaces/{space}/custom-fields',
      [200],
      SpaceCustomFields,
    );
  setSpaceCustomFields = (space: string, values: Record<string, unknown>) =>
    this.call(
      'PATCH',
      `/spaces/${enc(space)}/custom-fields`,
      '/spaces/{space}/custom-fields',
      [200, 204],
      null,
      {
        values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
      },
    );

  // Teams
  listTeams = (org: string) => listAll(this.http, `/orgs/${enc(org)}/teams`, '/orgs/{org}/teams', Team);
  createTeam = (org: string, title: string) =>
    this.call('PUT', `/orgs/${enc(org)}/teams`, '/orgs/{org}/teams', [200, 201], Team, { title }, true);
  updateTeam = (org: string, team: string, title: string) =>
    this.call('PATCH', `/orgs/${enc(org)}/teams/${enc(team)}`, '/orgs/{org}/teams/{team}', [200], Team, {
      title,
    });
  deleteTeam = (org: string, team: string) =>
    this.call('DELETE', `/orgs/${enc(org)}/teams/${enc(team)}`, '/orgs/{org}/teams/{team}', DELETED, null);
  listTeamMembers = (org: string, team: string) =>
    listAll(
      this.http,
      `/orgs/${enc(org)}/teams/${enc(team)}/members`,
      '/orgs/{org}/teams/{team}/members',
      TeamMember,
    );
  setTeamMembers = (org: string, team: string, body: Record<string, unknown>) =>
    this.call(
      'PUT',
      `/orgs/${enc(org)}/teams/${enc(team)}/members`,
      '/orgs/{org}/teams/{team}/members',
      [200, 204],
      null,
      body,
    );
}
