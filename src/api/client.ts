import type { z } from 'zod';
import { VERSION } from '../version.js';
import { HttpClient, type HttpMethod, type HttpObserver } from './http.js';
import { listAll } from './paginate.js';
import { parseAnswer } from './parse.js';
import type { ApiFlavor } from '../model/kinds.js';
import {
  AdaptiveSchema,
  Collection,
  CustomField,
  Member,
  OpenApiSpec,
  Organization,
  SamlProvider,
  Space,
  TranslationSettings,
  User,
  ShareLink,
  Site,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SpaceCustomFields,
  Team,
  TeamMember,
} from './schema.js';

export type ClientOptions = {
  apiUrl: string;
  token: string;
  concurrency?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  observer?: HttpObserver;
  flavor?: ApiFlavor;
};

const enc = encodeURIComponent;

/** Deletes answer 204 or 205 (the real service answers either); member removal may answer 202. */
const DELETED = [202, 204, 205] as const;

/**
 * The typed API: one method per endpoint docsync uses. Reads go through list endpoints only.
 * All calls share one HttpClient, so one queue and one rate budget.
 */
export class ApiClient {
  readonly http: HttpClient;
  readonly flavor: ApiFlavor;

  constructor(options: ClientOptions) {
    this.flavor = options.flavor ?? 'seed';
    this.http = new HttpClient({
      baseUrl: options.apiUrl,
      token: options.token,
      userAgent: `docsync/${VERSION}`,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.observer ? { observer: options.observer } : {}),
    });
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async call<T extends z.ZodType>(
    method: HttpMethod,
    path: string,
    route: string,
    expect: readonly number[],
    schema: T | null,
    body?: unknown,
    create = false,
  ): Promise<z.infer<T>> {
    const res = await this.http.send({ method, path, route, expect, body, create });
    return (schema ? parseAnswer(schema, res.body, method, route) : undefined) as z.infer<T>;
  }

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
  private sitePath = (org: string, site: string, rest: string) =>
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
