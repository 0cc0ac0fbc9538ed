import { describe, expect, it } from 'vitest';
import type { DiffProblemCode } from '../errors.js';
import type { ApiFlavor } from '../model/index.js';
import type { DesiredOrganization, LiveOrganization } from './index.js';
import type { LiveSite } from '../kinds/site.js';
import { diffOrganization } from './diff.js';
import { capabilitiesOf } from '../api/capabilities.js';

/**
 * The diff of one organization, case by case: desired and live state in, then the changes
 * (`action kind address`), the problem codes, the unmanaged addresses and the warnings out.
 * Pure: no emulator, no YAML.
 */
const ORG = 'org_t';
const policy = { prune: false, maxDeletes: 10 };
const prune = { prune: true, maxDeletes: 10 };

const liveSite = (title: string, extra: Partial<LiveSite> = {}): LiveSite => ({
  id: `site_${title.toLowerCase()}`,
  title,
  visibility: 'public',
  basename: null,
  agentsContext: 'included',
  adaptiveContent: null,
  proxy: null,
  ...extra,
});

const samlLive = (label: string, defaultTeam: string | null = null) => ({
  id: `saml_${label.toLowerCase()}`,
  label,
  entityID: null,
  ssoURL: null,
  certificateSha256: null,
  defaultTeam,
  defaultRole: null,
});

type Row = {
  name: string;
  desired: Partial<DesiredOrganization>;
  live: Partial<LiveOrganization>;
  flavor?: ApiFlavor;
  changes?: string[];
  problems?: DiffProblemCode[];
  unmanaged?: string[];
  warnings?: RegExp[];
  /** Dependencies, as `change address -> address it waits for`. */
  deps?: string[];
};

const rows: Row[] = [
  {
    name: 'nothing desired, nothing live: no changes',
    desired: {},
    live: {},
  },
  {
    name: 'a missing team is created',
    desired: { teams: [{ title: 'Writers' }] },
    live: { teams: [] },
    changes: ['create team org_t/teams/Writers'],
  },
  {
    name: 'an equal team plans nothing',
    desired: { teams: [{ title: 'Writers' }] },
    live: { teams: [{ id: 'team_1', title: 'Writers' }] },
  },
  {
    name: 'a pinned team with a new title is renamed in place',
    desired: { teams: [{ title: 'Editors', id: 'team_1' }] },
    live: { teams: [{ id: 'team_1', title: 'Writers' }] },
    changes: ['update team org_t/teams/Editors'],
  },
  {
    name: 'a `previously` name renames too',
    desired: { teams: [{ title: 'Editors', previously: ['Writers'] }] },
    live: { teams: [{ id: 'team_1', title: 'Writers' }] },
    changes: ['update team org_t/teams/Editors'],
  },
  {
    name: 'a pin to an id that does not exist is a problem',
    desired: { teams: [{ title: 'Editors', id: 'team_gone' }] },
    live: { teams: [{ id: 'team_1', title: 'Writers' }] },
    problems: ['pin-not-found'],
    unmanaged: ['org_t/teams/Writers'],
  },
  {
    name: 'a live team the config omits is listed as unmanaged when prune is off',
    desired: { teams: [] },
    live: { teams: [{ id: 'team_1', title: 'Old' }] },
    unmanaged: ['org_t/teams/Old'],
  },
  {
    name: 'a live team the config omits is deleted when prune is on',
    desired: { policy: prune, teams: [] },
    live: { teams: [{ id: 'team_1', title: 'Old' }] },
    changes: ['delete team org_t/teams/Old'],
  },
  {
    name: 'two live teams with the desired title: a warning, nothing planned for either',
    desired: { policy: prune, teams: [{ title: 'Writers' }] },
    live: {
      teams: [
        { id: 'team_1', title: 'Writers' },
        { id: 'team_2', title: 'Writers' },
      ],
    },
    warnings: [/team "Writers" matches 2 live objects \(ids team_1, team_2\)/],
  },
  {
    name: 'a SAML provider whose default team does not exist is a problem',
    desired: { saml: [{ label: 'Okta', defaultTeam: 'Nobody' }] },
    live: { saml: [], teams: [] },
    problems: ['unknown-reference'],
  },
  {
    name: 'an existing SAML provider gets a default team this plan creates, after it',
    desired: { teams: [{ title: 'SSO' }], saml: [{ label: 'Okta', defaultTeam: 'SSO' }] },
    live: { teams: [], saml: [samlLive('Okta')] },
    changes: ['create team org_t/teams/SSO', 'update saml-provider org_t/saml/Okta'],
    deps: ['org_t/saml/Okta -> org_t/teams/SSO'],
  },
  {
    name: 'a SAML provider already on its default team plans nothing',
    desired: { saml: [{ label: 'Okta', defaultTeam: 'SSO' }] },
    live: { teams: [{ id: 'team_1', title: 'SSO' }], saml: [samlLive('Okta', 'team_1')] },
  },
  {
    name: 'custom fields against the current API are a problem',
    desired: { customFields: [{ name: 'owner', type: 'text' }] },
    live: { customFields: [] },
    flavor: 'current',
    problems: ['unsupported-by-api'],
    changes: ['create custom-field org_t/custom-fields/owner'],
  },
  {
    name: 'translations by title against the current API are a problem',
    desired: { translations: [{ title: 'French' }] },
    live: { translations: [] },
    flavor: 'current',
    problems: ['unsupported-by-api'],
    changes: ['create translation org_t/translations/French'],
  },
  {
    name: 'a live state that could not be read is one problem and no change',
    desired: { teams: [{ title: 'Writers' }] },
    live: { readError: 'GET /orgs/{org}/teams failed (server 502)' },
    problems: ['live-read-failed'],
  },
  {
    name: 'publishing a site needs the current API',
    desired: { sites: [{ title: 'Docs', published: true }] },
    live: { sites: [liveSite('Docs')] },
    problems: ['unsupported-by-api'],
  },
  {
    name: 'the current API publishes a site',
    desired: { sites: [{ title: 'Docs', published: true }] },
    live: { sites: [liveSite('Docs', { published: false })] },
    flavor: 'current',
    changes: ['update site-publication org_t/sites/Docs/publication'],
  },
  {
    name: 'a member role for a user who is not a member is a problem',
    desired: { members: [{ user: 'zed@example.com', role: 'read' }] },
    live: { members: [{ userId: 'user_a', email: 'a@example.com', role: 'admin' }], self: 'user_a' },
    problems: ['not-a-member'],
    unmanaged: ['org_t/members/a@example.com'],
  },
  {
    name: 'a member role changes by e-mail',
    desired: { members: [{ user: 'A@example.com', role: 'edit' }] },
    live: { members: [{ userId: 'user_a', email: 'a@example.com', role: 'admin' }], self: 'user_b' },
    changes: ['update member org_t/members/A@example.com'],
  },
  {
    name: 'pruning members without knowing the token user is a problem',
    desired: { policy: { ...prune, pruneMembers: true }, members: [] },
    live: { members: [{ userId: 'user_a', email: 'a@example.com', role: 'admin' }], self: null },
    problems: ['token-user-unknown'],
    unmanaged: ['org_t/members/a@example.com'],
  },
  {
    name: 'a default site that does not exist is a problem',
    desired: { settings: { defaultContent: { site: 'Nowhere' } } },
    live: {
      sites: [],
      settings: {
        title: 'T',
        emailDomains: [],
        hostname: null,
        defaultRole: null,
        defaultContent: null,
        inviteLinks: false,
        logo: null,
        sso: false,
        ai: false,
      },
    },
    problems: ['unknown-reference'],
  },
  {
    name: 'a space in a collection that does not exist is a problem',
    desired: { spaces: [{ id: 'space_1', parent: 'Nowhere' }] },
    live: { collections: [], spaces: [{ id: 'space_1', title: 'S1', parent: null, customFields: {} }] },
    problems: ['unknown-reference'],
  },
  {
    name: 'an OpenAPI spec with a new source is updated; an omitted one is deleted with prune',
    desired: { policy: prune, openapi: [{ slug: 'petstore', source: 'https://example.com/v2.yaml' }] },
    live: {
      openapi: [
        { slug: 'petstore', source: 'https://example.com/v1.yaml' },
        { slug: 'old', source: 'https://example.com/old.yaml' },
      ],
    },
    changes: ['update openapi-spec org_t/openapi/petstore', 'delete openapi-spec org_t/openapi/old'],
  },
  {
    name: 'a share link is switched off on an existing site',
    desired: { sites: [{ title: 'Docs', shareLinks: [{ name: 'preview', active: false }] }] },
    live: { sites: [liveSite('Docs', { shareLinks: [{ id: 'sl_1', name: 'preview', active: true }] })] },
    changes: ['update share-link org_t/sites/Docs/share-links/preview'],
  },
];

describe('diffOrganization', () => {
  it.each(rows)('$name', (row) => {
    const desired: DesiredOrganization = { id: ORG, policy, ...row.desired };
    const live: LiveOrganization = { id: ORG, ...row.live };
    const diff = diffOrganization(desired, live, { capabilities: capabilitiesOf(row.flavor ?? 'seed') });
    const byKey = new Map(diff.drafts.map((d) => [d.key, d]));
    expect(diff.drafts.map((d) => `${d.action} ${d.kind} ${d.address}`)).toEqual(row.changes ?? []);
    expect(diff.problems.map((p) => p.code)).toEqual(row.problems ?? []);
    expect(diff.problems.every((p) => p.organization === ORG && p.message.length > 0)).toBe(true);
    expect(diff.unmanaged.map((u) => u.address)).toEqual(row.unmanaged ?? []);
    expect(diff.warnings).toHaveLength(row.warnings?.length ?? 0);
    row.warnings?.forEach((w, i) => expect(diff.warnings[i]!.message).toMatch(w));
    if (row.deps)
      expect(
        diff.drafts.flatMap((d) => d.deps.map((k) => `${d.address} -> ${byKey.get(k)?.address ?? k}`)),
      ).toEqual(row.deps);
  });
});
