# Generates the inputs of the golden plan cases (desired.yaml, live.json) under test/fixtures/plans/.
# The expected outputs are written by `UPDATE_GOLDEN=1 npx vitest run src/plan/golden.test.ts` and reviewed.
import json, os, random

ROOT = os.path.join(os.path.dirname(__file__), '..', 'test', 'fixtures', 'plans')

def org(**extra):
    o = {
        'id': 'org_g', 'title': 'Golden',
        'members': [
            {'id': 'user_a', 'email': 'a@example.com', 'displayName': 'A', 'role': 'admin'},
            {'id': 'user_b', 'email': 'b@example.com', 'displayName': 'B', 'role': 'edit'},
            {'id': 'user_c', 'email': 'c@example.com', 'displayName': 'C', 'role': 'read'},
        ],
        'spaces': [{'id': f'space_{i}', 'title': f'Space {i}'} for i in range(1, 13)],
    }
    o.update(extra)
    return {'organizations': [o]}

def sec(i, path, title=None, spaces=None, **kw):
    d = {'id': f'sec_{i}', 'title': title or f'Section {path}', 'path': path,
         'siteSpaces': spaces if spaces is not None else [{'id': f'ss_{i}', 'space': f'space_{i}', 'path': f'p{i}'}]}
    d.update(kw)
    return d

def site(sections=None, **kw):
    s = {'id': 'site_1', 'title': 'Docs', 'visibility': 'public'}
    if sections is not None: s['sections'] = sections
    s.update(kw)
    return s

def desired_sections(paths, header='organization: org_g\n', site_extra=''):
    out = header + 'sites:\n  - title: Docs\n' + site_extra + '    sections:\n'
    for p, i in paths:
        out += f'      - path: {p}\n        title: Section {p}\n        spaces:\n          - space: space_{i}\n            path: p{i}\n'
    return out

cases = {}

cases['create-everything'] = (
"""organization: org_g
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
""", org())

cases['no-changes'] = (desired_sections([('a', 1), ('b', 2)]), org(sites=[site([sec(1, 'a'), sec(2, 'b')])]))

cases['custom-field-update'] = ("""organization: org_g
customFields:
  - { name: tier, type: select:single, title: Tier level, options: [gold, silver, bronze] }
""", org(customFields=[{'id': 'cf_1', 'name': 'tier', 'type': 'select:single', 'title': 'Tier', 'options': ['gold', 'silver']}]))

cases['custom-field-type-change'] = ("""organization: org_g
customFields:
  - { name: size, type: number }
spaces:
  - id: space_1
    customFields: { size: 3 }
""", org(customFields=[{'id': 'cf_1', 'name': 'size', 'type': 'text'}], spaces=[{'id': 'space_1', 'title': 'S1', 'customFields': {'size': 'three'}}]))

cases['custom-field-prune'] = ("""organization: org_g
policy: { prune: true }
customFields:
  - { name: owner, type: text }
""", org(customFields=[{'id': 'cf_1', 'name': 'owner', 'type': 'text'}, {'id': 'cf_2', 'name': 'legacy', 'type': 'text'}]))

cases['custom-field-unmanaged'] = ("""organization: org_g
customFields:
  - { name: owner, type: text }
""", org(customFields=[{'id': 'cf_1', 'name': 'owner', 'type': 'text'}, {'id': 'cf_2', 'name': 'legacy', 'type': 'text'}]))

cases['space-values'] = ("""organization: org_g
spaces:
  - id: space_1
    customFields: { owner: docs, tags: [a, b], count: null }
  - id: space_2
    customFields: { owner: same }
""", org(customFields=[{'name': 'owner', 'type': 'text'}, {'name': 'tags', 'type': 'tags'}, {'name': 'count', 'type': 'number'}],
        spaces=[{'id': 'space_1', 'title': 'S1', 'customFields': {'owner': 'old', 'count': 4}}, {'id': 'space_2', 'title': 'S2', 'customFields': {'owner': 'same'}}]))

cases['team-create-with-members'] = ("""organization: org_g
teams:
  - title: Writers
    members: [a@example.com, { user: user_b, role: owner }]
""", org())

cases['team-membership-change'] = ("""organization: org_g
teams:
  - title: Writers
    members:
      - { user: a@example.com, role: owner }
      - user_c
""", org(teams=[{'id': 'team_1', 'title': 'Writers', 'members': ['user_a', {'user': 'user_b', 'role': 'owner'}]}]))

cases['team-rename-pinned'] = ("""organization: org_g
teams:
  - { title: Editors, id: team_1 }
""", org(teams=[{'id': 'team_1', 'title': 'Writers'}]))

cases['team-prune'] = ("""organization: org_g
policy: { prune: true }
teams:
  - title: Writers
""", org(teams=[{'id': 'team_1', 'title': 'Writers'}, {'id': 'team_2', 'title': 'Old'}]))

cases['site-rename-pinned'] = ("""organization: org_g
sites:
  - { title: Developer Docs, id: site_1 }
""", org(sites=[site()]))

cases['site-rename-unpinned'] = ("""organization: org_g
policy: { prune: true }
sites:
  - { title: Developer Docs }
""", org(sites=[site()]))

cases['site-fields'] = ("""organization: org_g
sites:
  - title: Docs
    visibility: share-link
    basename: handbook
    agentsContext: excluded
    adaptiveContent: { enabled: true }
    proxy: null
""", org(sites=[site(proxy='company.com/docs', basename='docs')]))

cases['site-delete-prune'] = ("""organization: org_g
policy: { prune: true }
sites:
  - title: Docs
""", org(sites=[site(), {'id': 'site_2', 'title': 'Old site'}]))

cases['section-create-delete'] = (desired_sections([('a', 1), ('c', 3)], header='organization: org_g\npolicy: { prune: true }\n'),
    org(sites=[site([sec(1, 'a'), sec(2, 'b')])]))

cases['section-fields'] = ("""organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Renamed section
        icon: null
        description: About A
        condition: visitor.claims.beta
        spaces: [{ space: space_1, path: p1 }]
""", org(sites=[site([sec(1, 'a', icon='book', condition='old')])]))

order = lambda ns: desired_sections([(f's{i}', i) for i in ns])
live_order = lambda ns: org(sites=[site([sec(i, f's{i}') for i in ns])])
cases['sections-reverse'] = (order([6, 5, 4, 3, 2, 1]), live_order([1, 2, 3, 4, 5, 6]))
cases['sections-rotate'] = (order([2, 3, 4, 5, 6, 1]), live_order([1, 2, 3, 4, 5, 6]))
cases['sections-swap'] = (order([1, 5, 3, 4, 2, 6]), live_order([1, 2, 3, 4, 5, 6]))
rnd = random.Random(7); perm = list(range(1, 11)); rnd.shuffle(perm)
cases['sections-random'] = (order(perm), live_order(list(range(1, 11))))

cases['section-path-swap'] = ("""organization: org_g
sites:
  - title: Docs
    sections:
      - path: b
        title: Section a
        spaces: [{ space: space_1, path: p1 }]
      - path: a
        title: Section b
        spaces: [{ space: space_2, path: p2 }]
""", org(sites=[site([sec(1, 'a', title='Section a'), sec(2, 'b', title='Section b')])]))

cases['site-space-path-swap'] = ("""organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces:
          - { space: space_1, path: v2 }
          - { space: space_2, path: v1 }
""", org(sites=[site([sec(1, 'a', spaces=[{'id': 'ss_1', 'space': 'space_1', 'path': 'v1'}, {'id': 'ss_2', 'space': 'space_2', 'path': 'v2'}])])]))

cases['site-space-move-section'] = ("""organization: org_g
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
""", org(sites=[site([sec(1, 'a', spaces=[{'id': 'ss_1', 'space': 'space_1', 'path': 'p1'}, {'id': 'ss_3', 'space': 'space_3', 'path': 'p3'}]), sec(2, 'b')])]))

cases['site-space-reorder'] = ("""organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces:
          - { space: space_3 }
          - { space: space_1 }
          - { space: space_2 }
""", org(sites=[site([sec(1, 'a', spaces=[{'id': f'ss_{i}', 'space': f'space_{i}', 'path': f'p{i}'} for i in (1, 2, 3)])])]))

cases['default-section-change'] = (desired_sections([('a', 1), ('b', 2)]).replace('      - path: b\n', '      - path: b\n        default: true\n'),
    org(sites=[site([sec(1, 'a', default=True), sec(2, 'b')])]))

cases['default-site-space-change'] = ("""organization: org_g
sites:
  - title: Docs
    sections:
      - path: a
        title: Section a
        spaces:
          - { space: space_1 }
          - { space: space_2, default: true }
""", org(sites=[site([sec(1, 'a', spaces=[{'id': 'ss_1', 'space': 'space_1', 'path': 'p1', 'default': True}, {'id': 'ss_2', 'space': 'space_2', 'path': 'p2'}])])]))

cases['section-groups'] = ("""organization: org_g
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
""", org(sites=[site([sec(1, 'a', sectionGroup='grp_1'), sec(2, 'b', sectionGroup='grp_1'), sec(3, 'c', sectionGroup='grp_3')],
                     sectionGroups=[{'id': 'grp_1', 'title': 'First'}, {'id': 'grp_2', 'title': 'Second'}, {'id': 'grp_3', 'title': 'Gone'}])]))

cases['share-links'] = ("""organization: org_g
policy: { prune: true }
sites:
  - title: Docs
    shareLinks:
      - { name: partner, active: false }
      - { name: preview }
      - { name: review, active: false }
""", org(sites=[site(shareLinks=[{'id': 'sl_1', 'name': 'partner', 'active': True}, {'id': 'sl_2', 'name': 'old', 'active': True}])]))

cases['guard-max-deletes'] = ("""organization: org_g
policy: { prune: true, maxDeletes: 2 }
teams:
  - title: Keep
""", org(teams=[{'id': f'team_{i}', 'title': t} for i, t in enumerate(['Keep', 'T1', 'T2', 'T3'])]))

cases['guard-deletes-everything'] = ("""organization: org_g
policy: { prune: true }
teams: []
""", org(teams=[{'id': 'team_1', 'title': 'Only'}, {'id': 'team_2', 'title': 'Other'}]))

cases['root-spaces'] = ("""organization: org_g
sites:
  - title: Handbook
    spaces:
      - { space: space_2, path: second }
      - { space: space_1, path: first, default: true }
      - { space: space_4, path: fourth }
""", org(sites=[{'id': 'site_h', 'title': 'Handbook', 'siteSpaces': [{'id': 'ss_1', 'space': 'space_1', 'path': 'first'}, {'id': 'ss_2', 'space': 'space_2', 'path': 'second', 'default': True}, {'id': 'ss_3', 'space': 'space_3', 'path': 'third'}]}]))

cases['ambiguous-site'] = ("""organization: org_g
sites:
  - { title: Docs, visibility: unlisted }
""", org(sites=[{'id': 'site_1', 'title': 'Docs'}, {'id': 'site_2', 'title': 'Docs'}]))

cases['section-rename-by-space'] = ("""organization: org_g
sites:
  - title: Docs
    sections:
      - { path: guides, title: Guides, spaces: [{ space: space_1, path: p1 }] }
""", org(sites=[site([sec(1, 'old-guides', title='Guides')])]))

for name, (desired, live) in cases.items():
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'desired.yaml'), 'w') as f: f.write(desired)
    with open(os.path.join(d, 'live.json'), 'w') as f: f.write(json.dumps(live, indent=2) + '\n')
print(len(cases), 'cases')

# Kinds beyond the card (issue 11).
more = {}
more['org-settings'] = ("""organization: org_g
settings:
  title: Golden Docs Inc
  hostname: golden-docs
  defaultRole: read
  inviteLinks: true
  ai: true
  defaultContent: { site: Handbook }
sites:
  - title: Handbook
""", org(), None)

more['member-roles'] = ("""organization: org_g
policy: { prune: true }
members:
  - { user: b@example.com, role: admin }
  - { user: user_c, role: null }
""", dict(org(), tokenUser='user_a'), None)

more['collections-and-spaces'] = ("""organization: org_g
policy: { prune: true }
collections:
  - { title: Product, description: Product docs, defaultLevel: read }
  - { title: APIs, parent: Product }
  - { title: Legacy, parent: null }
spaces:
  - { id: space_1, title: Getting started, emoji: "🚀", parent: APIs }
  - { id: space_2, parent: null, editMode: locked }
""", org(collections=[{'id': 'col_1', 'title': 'Legacy', 'parent': 'col_2'}, {'id': 'col_2', 'title': 'Old'}],
        spaces=[{'id': 'space_1', 'title': 'Space 1', 'parent': 'col_2'}, {'id': 'space_2', 'title': 'Space 2', 'parent': 'col_1'}]), None)

more['openapi-specs'] = ("""organization: org_g
policy: { prune: true }
openapi:
  - { slug: petstore, source: "https://example.com/petstore.yaml" }
  - { slug: billing, source: "https://example.com/billing-v2.yaml" }
""", org(openapi=[{'slug': 'billing', 'source': 'https://example.com/billing.yaml'}, {'slug': 'old-api', 'source': 'https://example.com/old.yaml'}]), None)

more['saml-provider'] = ("""organization: org_g
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
    certificate: { env: GOLDEN_AZURE_CERT }
""", org(saml=[{'id': 'saml_1', 'label': 'Azure', 'certificate': 'OLD-CERTIFICATE'}]), {'env': {'GOLDEN_AZURE_CERT': '-----BEGIN CERTIFICATE-----\nNEWAZURE\n-----END CERTIFICATE-----'}})

more['translations'] = ("""organization: org_g
policy: { prune: true }
translations:
  - { title: French }
  - { title: Deutsch, id: tr_1 }
""", org(translations=[{'id': 'tr_1', 'title': 'German'}, {'id': 'tr_2', 'title': 'Klingon'}]), None)

more['site-adaptive-schema'] = ("""organization: org_g
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
""", org(sites=[site()]), None)

more['current-flavor-site'] = ("""organization: org_g
sites:
  - title: Docs
    published: true
    agentsContext: excluded
    sections:
      - { path: b, title: Section b, spaces: [{ space: space_2, path: p2 }] }
      - { path: a, title: Section a, spaces: [{ space: space_1, path: p1 }] }
    sectionGroups:
      - { title: Group, sections: [a] }
""", org(sites=[site([sec(1, 'a', title='Section a'), sec(2, 'b', title='Section b')], sectionGroups=[{'id': 'grp_1', 'title': 'Group'}])]), {'flavor': 'current'})

more['published-needs-current'] = ("""organization: org_g
sites:
  - { title: Docs, published: true }
""", org(sites=[site()]), None)

more['every-kind'] = ("""organization: org_g
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
""", org(), None)

PEM = '-----BEGIN CERTIFICATE-----\nMIIBGOLDENTESTCERTIFICATE\n-----END CERTIFICATE-----\n'
for name, (desired, live, options) in more.items():
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'desired.yaml'), 'w') as f: f.write(desired)
    with open(os.path.join(d, 'live.json'), 'w') as f: f.write(json.dumps(live, indent=2) + '\n')
    if options:
        with open(os.path.join(d, 'options.json'), 'w') as f: f.write(json.dumps(options, indent=2) + '\n')
    if 'okta.pem' in desired:
        with open(os.path.join(d, 'okta.pem'), 'w') as f: f.write(PEM)
print(len(more), 'more cases')
