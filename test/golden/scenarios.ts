/**
 * The golden plan cases written by hand: scenarios of the algorithms (ordering, moves, the site
 * structure, renames, guards) and cases kept from before the kinds declared their examples. Each
 * kind's own cases are generated from its examples (test/helpers/kind-examples.ts);
 * scripts/golden-cases.ts writes both under test/fixtures/plans/.
 */
import { TEST_PEM_2 } from '../helpers/certificates.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };
export type Options = { flavor?: 'seed' | 'current'; env?: Record<string, string> };
export type Case = { desired: string; live: Obj; options?: Options };

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** The live state: one organization with three members and twelve spaces, plus `extra`. */
export function org(extra: Obj = {}): Obj {
  return {
    organizations: [
      {
        id: 'org_g',
        title: 'Golden',
        members: [
          { id: 'user_a', email: 'a@example.com', displayName: 'A', role: 'admin' },
          { id: 'user_b', email: 'b@example.com', displayName: 'B', role: 'edit' },
          { id: 'user_c', email: 'c@example.com', displayName: 'C', role: 'read' },
        ],
        spaces: range(1, 13).map((i) => ({ id: `space_${i}`, title: `Space ${i}` })),
        ...extra,
      },
    ],
  };
}

/** A live section `sec_i` at `path`, holding site space `ss_i` of `space_i` unless `spaces` is given. */
function sec(i: number, path: string, extra: Obj & { title?: string; spaces?: Json[] } = {}): Obj {
  const { title, spaces, ...rest } = extra;
  return {
    id: `sec_${i}`,
    title: title ?? `Section ${path}`,
    path,
    siteSpaces: spaces ?? [{ id: `ss_${i}`, space: `space_${i}`, path: `p${i}` }],
    ...rest,
  };
}

function site(sections?: Json[], extra: Obj = {}): Obj {
  return { id: 'site_1', title: 'Docs', visibility: 'public', ...(sections ? { sections } : {}), ...extra };
}

/** Desired YAML: the site Docs with one section per `[path, space number]`. */
function desiredSections(
  paths: [string, number][],
  header = 'organization: org_g\n',
  siteExtra = '',
): string {
  let out = `${header}sites:\n  - title: Docs\n${siteExtra}    sections:\n`;
  for (const [p, i] of paths)
    out += `      - path: ${p}\n        title: Section ${p}\n        spaces:\n          - space: space_${i}\n            path: p${i}\n`;
  return out;
}

const order = (ns: number[]) => desiredSections(ns.map((i) => [`s${i}`, i]));
const liveOrder = (ns: number[]) => org({ sites: [site(ns.map((i) => sec(i, `s${i}`)))] });

export const scenarios: Record<string, Case> = {};

scenarios['create-everything'] = {
  desired: `organization: org_g
customFields:
  - { name: owner, type: text, title: Owner }
spaces:
  - id: space_1
    customFields: { owner: docs }
teams:
  - title: Writers
    members: [{ user: a@example.com, role: owner }, b@example.com]
sites:
  - title: Docs
    visibility: unlisted
    basename: docs
    shareLinks: [{ name: preview, active: false }]
    sections:
      - path: guides
        title: Guides
        icon: book
        default: true
        spaces:
          - { space: space_1, path: v2, default: true }
          - { space: space_2, path: v1 }
      - path: api
        title: API
        spaces: [{ space: space_3 }]
    sectionGroups:
      - { title: Products, sections: [guides] }
`,
  live: org(),
};

scenarios['no-changes'] = {
  desired: desiredSections([
    ['a', 1],
    ['b', 2],
  ]),
  live: org({ sites: [site([sec(1, 'a'), sec(2, 'b')])] }),
};

scenarios['custom-field-update'] = {
  desired: `organization: org_g
customFields:
  - { name: tier, type: select:single, title: Tier level, options: [gold, silver, bronze] }
`,
  live: org({
    customFields: [
      { id: 'cf_1', name: 'tier', type: 'select:single', title: 'Tier', options: ['gold', 'silver'] },
    ],
  }),
};

scenarios['custom-field-type-change'] = {
  desired: `organization: org_g
customFields:
  - { name: size, type: number }
spaces:
  - id: space_1
    customFields: { size: 3 }
`,
  live: org({
    customFields: [{ id: 'cf_1', name: 'size', type: 'text' }],
    spaces: [{ id: 'space_1', title: 'S1', customFields: { size: 'three' } }],
  }),
};

const twoFields = org({
  customFields: [
    { id: 'cf_1', name: 'owner', type: 'text' },
    { id: 'cf_2', name: 'legacy', type: 'text' },
  ],
});

scenarios['custom-field-prune'] = {
  desired: `organization: org_g
policy: { prune: true }
customFields:
  - { name: owner, type: text }
`,
  live: twoFields,
};

scenarios['custom-field-unmanaged'] = {
  desired: `organization: org_g
customFields:
  - { name: owner, type: text }
`,
  live: twoFields,
};

scenarios['space-values'] = {
  desired: `organization: org_g
spaces:
  - id: space_1
    customFields: { owner: docs, tags: [a, b], count: null }
  - id: space_2
    customFields: { owner: same }
`,
  live: org({
    customFields: [
      { name: 'owner', type: 'text' },
      { name: 'tags', type: 'tags' },
      { name: 'count', type: 'number' },
    ],
    spaces: [
      { id: 'space_1', title: 'S1', customFields: { owner: 'old', count: 4 } },
      { id: 'space_2', title: 'S2', customFields: { owner: 'same' } },
    ],
  }),
};

scenarios['team-create-with-members'] = {
  desired: `organization: org_g
teams:
  - title: Writers
    members: [a@example.com, { user: user_b, role: owner }]
`,
  live: org(),
};

scenarios['team-membership-change'] = {
  desired: `organization: org_g
teams:
  - title: Writers
    members:
      - { user: a@example.com, role: owner }
      - user_c
`,
  live: org({
    teams: [{ id: 'team_1', title: 'Writers', members: ['user_a', { user: 'user_b', role: 'owner' }] }],
  }),
};

scenarios['team-rename-pinned'] = {
  desired: `organization: org_g
teams:
  - { title: Editors, id: team_1 }
`,
  live: org({ teams: [{ id: 'team_1', title: 'Writers' }] }),
};

scenarios['team-prune'] = {
  desired: `organization: org_g
policy: { prune: true }
teams:
  - title: Writers
`,
  live: org({
    teams: [
      { id: 'team_1', title: 'Writers' },
      { id: 'team_2', title: 'Old' },
    ],
  }),
};

scenarios['site-rename-pinned'] = {
  desired: `organization: org_g
sites:
  - { title: Developer Docs, id: site_1 }
`,
  live: org({ sites: [site()] }),
};

scenarios['site-rename-unpinned'] = {
  desired: `organization: org_g
policy: { prune: true }
sites:
  - { title: Developer Docs }
`,
  live: org({ sites: [site()] }),
};

scenarios['site-fields'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    visibility: share-link
    basename: handbook
    agentsContext: excluded
    adaptiveContent: { enabled: true }
    proxy: null
`,
  live: org({ sites: [site(undefined, { proxy: 'company.com/docs', basename: 'docs' })] }),
};

scenarios['site-delete-prune'] = {
  desired: `organization: org_g
policy: { prune: true }
sites:
  - title: Docs
`,
  live: org({ sites: [site(), { id: 'site_2', title: 'Old site' }] }),
};

scenarios['section-create-delete'] = {
  desired: desiredSections(
    [
      ['a', 1],
      ['c', 3],
    ],
    'organization: org_g\npolicy: { prune: true }\n',
  ),
  live: org({ sites: [site([sec(1, 'a'), sec(2, 'b')])] }),
};

scenarios['section-fields'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Renamed section
        icon: null
        description: About A
        condition: visitor.claims.beta
        spaces: [{ space: space_1, path: p1 }]
`,
  live: org({ sites: [site([sec(1, 'a', { icon: 'book', condition: 'old' })])] }),
};

scenarios['sections-reverse'] = { desired: order([6, 5, 4, 3, 2, 1]), live: liveOrder(range(1, 7)) };
scenarios['sections-rotate'] = { desired: order([2, 3, 4, 5, 6, 1]), live: liveOrder(range(1, 7)) };
scenarios['sections-swap'] = { desired: order([1, 5, 3, 4, 2, 6]), live: liveOrder(range(1, 7)) };
// A fixed shuffle of 1..10 (first drawn with a seeded generator; kept literal so it never moves).
scenarios['sections-random'] = {
  desired: order([9, 4, 2, 5, 8, 1, 10, 7, 3, 6]),
  live: liveOrder(range(1, 11)),
};

scenarios['section-path-swap'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - path: b
        title: Section a
        spaces: [{ space: space_1, path: p1 }]
      - path: a
        title: Section b
        spaces: [{ space: space_2, path: p2 }]
`,
  live: org({ sites: [site([sec(1, 'a', { title: 'Section a' }), sec(2, 'b', { title: 'Section b' })])] }),
};

scenarios['site-space-path-swap'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces:
          - { space: space_1, path: v2 }
          - { space: space_2, path: v1 }
`,
  live: org({
    sites: [
      site([
        sec(1, 'a', {
          spaces: [
            { id: 'ss_1', space: 'space_1', path: 'v1' },
            { id: 'ss_2', space: 'space_2', path: 'v2' },
          ],
        }),
      ]),
    ],
  }),
};

scenarios['site-space-move-section'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces: [{ space: space_1, path: p1 }]
      - path: b
        title: Section b
        spaces:
          - { space: space_2, path: p2 }
          - { space: space_3, path: p3 }
`,
  live: org({
    sites: [
      site([
        sec(1, 'a', {
          spaces: [
            { id: 'ss_1', space: 'space_1', path: 'p1' },
            { id: 'ss_3', space: 'space_3', path: 'p3' },
          ],
        }),
        sec(2, 'b'),
      ]),
    ],
  }),
};

scenarios['site-space-reorder'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces:
          - { space: space_3 }
          - { space: space_1 }
          - { space: space_2 }
`,
  live: org({
    sites: [
      site([
        sec(1, 'a', {
          spaces: [1, 2, 3].map((i) => ({ id: `ss_${i}`, space: `space_${i}`, path: `p${i}` })),
        }),
      ]),
    ],
  }),
};

scenarios['default-section-change'] = {
  desired: desiredSections([
    ['a', 1],
    ['b', 2],
  ]).replaceAll('      - path: b\n', '      - path: b\n        default: true\n'),
  live: org({ sites: [site([sec(1, 'a', { default: true }), sec(2, 'b')])] }),
};

scenarios['default-site-space-change'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces:
          - { space: space_1 }
          - { space: space_2, default: true }
`,
  live: org({
    sites: [
      site([
        sec(1, 'a', {
          spaces: [
            { id: 'ss_1', space: 'space_1', path: 'p1', default: true },
            { id: 'ss_2', space: 'space_2', path: 'p2' },
          ],
        }),
      ]),
    ],
  }),
};

scenarios['section-groups'] = {
  desired: `organization: org_g
policy: { prune: true }
sites:
  - title: Docs
    sections:
      - { path: a, title: Section a, spaces: [{ space: space_1, path: p1 }] }
      - { path: b, title: Section b, spaces: [{ space: space_2, path: p2 }] }
      - { path: c, title: Section c, spaces: [{ space: space_3, path: p3 }] }
    sectionGroups:
      - { title: Second, icon: star, sections: [b] }
      - { title: First, sections: [a, c] }
      - { title: New, sections: [] }
`,
  live: org({
    sites: [
      site(
        [
          sec(1, 'a', { sectionGroup: 'grp_1' }),
          sec(2, 'b', { sectionGroup: 'grp_1' }),
          sec(3, 'c', { sectionGroup: 'grp_3' }),
        ],
        {
          sectionGroups: [
            { id: 'grp_1', title: 'First' },
            { id: 'grp_2', title: 'Second' },
            { id: 'grp_3', title: 'Gone' },
          ],
        },
      ),
    ],
  }),
};

scenarios['share-links'] = {
  desired: `organization: org_g
policy: { prune: true }
sites:
  - title: Docs
    shareLinks:
      - { name: partner, active: false }
      - { name: preview }
      - { name: review, active: false }
`,
  live: org({
    sites: [
      site(undefined, {
        shareLinks: [
          { id: 'sl_1', name: 'partner', active: true },
          { id: 'sl_2', name: 'old', active: true },
        ],
      }),
    ],
  }),
};

scenarios['guard-max-deletes'] = {
  desired: `organization: org_g
policy: { prune: true, maxDeletes: 2 }
teams:
  - title: Keep
`,
  live: org({ teams: ['Keep', 'T1', 'T2', 'T3'].map((title, i) => ({ id: `team_${i}`, title })) }),
};

scenarios['guard-deletes-everything'] = {
  desired: `organization: org_g
policy: { prune: true }
teams: []
`,
  live: org({
    teams: [
      { id: 'team_1', title: 'Only' },
      { id: 'team_2', title: 'Other' },
    ],
  }),
};

scenarios['root-spaces'] = {
  desired: `organization: org_g
sites:
  - title: Handbook
    spaces:
      - { space: space_2, path: second }
      - { space: space_1, path: first, default: true }
      - { space: space_4, path: fourth }
`,
  live: org({
    sites: [
      {
        id: 'site_h',
        title: 'Handbook',
        siteSpaces: [
          { id: 'ss_1', space: 'space_1', path: 'first' },
          { id: 'ss_2', space: 'space_2', path: 'second', default: true },
          { id: 'ss_3', space: 'space_3', path: 'third' },
        ],
      },
    ],
  }),
};

scenarios['ambiguous-site'] = {
  desired: `organization: org_g
sites:
  - { title: Docs, visibility: unlisted }
`,
  live: org({
    sites: [
      { id: 'site_1', title: 'Docs' },
      { id: 'site_2', title: 'Docs' },
    ],
  }),
};

scenarios['section-rename-by-space'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    sections:
      - { path: guides, title: Guides, spaces: [{ space: space_1, path: p1 }] }
`,
  live: org({ sites: [site([sec(1, 'old-guides', { title: 'Guides' })])] }),
};

// Kinds beyond the card (issue 11).

scenarios['org-settings'] = {
  desired: `organization: org_g
settings:
  title: Golden Docs Inc
  hostname: golden-docs
  defaultRole: read
  inviteLinks: true
  ai: true
  defaultContent: { site: Handbook }
sites:
  - title: Handbook
`,
  live: org(),
};

scenarios['member-roles'] = {
  desired: `organization: org_g
policy: { prune: true }
members:
  - { user: b@example.com, role: admin }
  - { user: user_c, role: null }
`,
  live: { ...org(), tokenUser: 'user_a' },
};

scenarios['collections-and-spaces'] = {
  desired: `organization: org_g
policy: { prune: true }
collections:
  - { title: Product, description: Product docs, defaultLevel: read }
  - { title: APIs, parent: Product }
  - { title: Legacy, parent: null }
spaces:
  - { id: space_1, title: Getting started, emoji: "🚀", parent: APIs }
  - { id: space_2, parent: null, editMode: locked }
`,
  live: org({
    collections: [
      { id: 'col_1', title: 'Legacy', parent: 'col_2' },
      { id: 'col_2', title: 'Old' },
    ],
    spaces: [
      { id: 'space_1', title: 'Space 1', parent: 'col_2' },
      { id: 'space_2', title: 'Space 2', parent: 'col_1' },
    ],
  }),
};

scenarios['openapi-specs'] = {
  desired: `organization: org_g
policy: { prune: true }
openapi:
  - { slug: petstore, source: "https://example.com/petstore.yaml" }
  - { slug: billing, source: "https://example.com/billing-v2.yaml" }
`,
  live: org({
    openapi: [
      { slug: 'billing', source: 'https://example.com/billing.yaml' },
      { slug: 'old-api', source: 'https://example.com/old.yaml' },
    ],
  }),
};

scenarios['saml-provider'] = {
  desired: `organization: org_g
teams:
  - title: SSO users
saml:
  - label: Okta
    entityID: http://www.okta.com/abc
    ssoURL: https://acme.okta.com/app/sso/saml
    certificate: { file: okta.pem }
    defaultTeam: SSO users
    defaultRole: read
  - label: Azure
    certificate: { env: DOCSYNC_SECRET_GOLDEN_AZURE_CERT }
`,
  live: org({ saml: [{ id: 'saml_1', label: 'Azure', certificate: 'OLD-CERTIFICATE' }] }),
  options: {
    env: {
      DOCSYNC_SECRET_GOLDEN_AZURE_CERT: TEST_PEM_2.trim(),
    },
  },
};

scenarios['translations'] = {
  desired: `organization: org_g
policy: { prune: true }
translations:
  - { title: French }
  - { title: Deutsch, id: tr_1 }
`,
  live: org({
    translations: [
      { id: 'tr_1', title: 'German' },
      { id: 'tr_2', title: 'Klingon' },
    ],
  }),
};

scenarios['site-adaptive-schema'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    adaptiveSchema:
      $schema: http://json-schema.org/draft-07/schema#
      type: object
      additionalProperties: false
      properties:
        unsigned:
          type: object
          description: Unsigned claims of the site visitor.
          additionalProperties: false
          properties:
            beta: { type: boolean, description: Beta tester }
`,
  live: org({ sites: [site()] }),
};

scenarios['current-flavor-site'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    published: true
    agentsContext: excluded
    sections:
      - { path: b, title: Section b, spaces: [{ space: space_2, path: p2 }] }
      - { path: a, title: Section a, spaces: [{ space: space_1, path: p1 }] }
    sectionGroups:
      - { title: Group, sections: [a] }
`,
  live: org({
    sites: [
      site([sec(1, 'a', { title: 'Section a' }), sec(2, 'b', { title: 'Section b' })], {
        sectionGroups: [{ id: 'grp_1', title: 'Group' }],
      }),
    ],
  }),
  options: { flavor: 'current' },
};

// Property seed 5, case 23 (prune off, current API): b shares a space with d but takes the live
// section at its own path; d, given up, then pairs with c by space_8, so one apply converges.
const ss = (n: number, path?: string): Obj => ({
  id: `ss_${n}`,
  space: `space_${n}`,
  ...(path ? { path } : {}),
});
scenarios['section-given-up-pairs-by-space'] = {
  desired: `organization: org_g
sites:
  - title: Docs
    published: true
    sections:
      - path: b
        title: Section B v2
        spaces: [{ space: space_9 }, { space: space_11 }, { space: space_12, path: p-12x }]
      - { path: a, title: Section A v2, spaces: [{ space: space_5 }, { space: space_3, path: p-3 }] }
      - path: c
        title: Section C v2
        icon: null
        spaces: [{ space: space_8, path: p-8 }, { space: space_2, path: p-2 }]
      - { path: f, title: Section F, spaces: [{ space: space_1, default: true }, { space: space_7 }] }
    sectionGroups:
      - { title: G1, sections: [c] }
`,
  live: org({
    sites: [
      site([
        sec(1, 'a', { title: 'Section A', spaces: [ss(3, 'p-3'), ss(6, 'p-6'), ss(11)] }),
        sec(2, 'c', { title: 'Section C v2', spaces: [ss(7), ss(5)] }),
        sec(3, 'd', { title: 'Section D v2', spaces: [ss(8), ss(12)] }),
        sec(4, 'b', { title: 'Section B', spaces: [ss(4), ss(1)] }),
      ]),
    ],
  }),
  options: { flavor: 'current' },
};

scenarios['published-needs-current'] = {
  desired: `organization: org_g
sites:
  - { title: Docs, published: true }
`,
  live: org({ sites: [site()] }),
};

scenarios['every-kind'] = {
  desired: `organization: org_g
settings: { title: Everything Inc, defaultContent: { site: Docs } }
members:
  - { user: c@example.com, role: edit }
collections:
  - { title: Product }
spaces:
  - { id: space_1, parent: Product, customFields: { owner: docs } }
customFields:
  - { name: owner, type: text }
teams:
  - { title: Writers, members: [a@example.com] }
openapi:
  - { slug: petstore, source: "https://example.com/petstore.yaml" }
saml:
  - { label: Okta, defaultTeam: Writers, certificate: { file: okta.pem } }
translations:
  - { title: French }
sites:
  - title: Docs
    shareLinks: [{ name: preview }]
    adaptiveSchema: { type: object, properties: {}, additionalProperties: false }
    sections:
      - { path: guides, title: Guides, spaces: [{ space: space_1 }, { space: space_2 }] }
    sectionGroups:
      - { title: Main, sections: [guides] }
`,
  live: org(),
};

// Renames through `previously` (issue 16): a small organization of its own.
scenarios['renames-previously'] = {
  desired: `organization: org_g
policy: { prune: true }
collections:
  - { title: Products, previously: [Product] }
saml:
  - { label: Okta SSO, previously: [Okta] }
teams:
  - { title: Authors, previously: [Writers] }
sites:
  - title: Developer Docs
    previously: [Docs]
    shareLinks:
      - { name: partner-2026, previously: [partner] }
    sections:
      - { path: guides, title: Guides, spaces: [{ space: space_1 }] }
    sectionGroups:
      - { title: Product docs, previously: [Products], sections: [guides] }
`,
  live: {
    organizations: [
      {
        id: 'org_g',
        title: 'Golden',
        members: [{ id: 'user_a', email: 'a@example.com', displayName: 'A', role: 'admin' }],
        spaces: [
          { id: 'space_1', title: 'Space 1' },
          { id: 'space_2', title: 'Space 2' },
        ],
        teams: [{ title: 'Writers', members: [] }],
        saml: [{ label: 'Okta', entityID: 'http://okta/abc' }],
        collections: [{ id: 'col_1', title: 'Product' }],
        sites: [
          {
            title: 'Docs',
            shareLinks: [{ name: 'partner' }],
            sectionGroups: [{ title: 'Products' }],
            sections: [
              {
                title: 'Guides',
                path: 'guides',
                sectionGroup: 'Products',
                siteSpaces: [{ space: 'space_1' }],
              },
            ],
          },
        ],
      },
    ],
  },
};
