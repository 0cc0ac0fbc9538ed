import { describe, expect, it } from 'vitest';
import { extractEntryControls } from './entry-controls.js';
import { loadConfigFromBuffers } from './load.js';
import { parseYamlFile, type YamlFile } from './yaml-file.js';

const load = (yaml: string) => loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(yaml) }], {});

describe('policy controls and entry-level ignore/protect', () => {
  it('entries say ignore and protect for themselves, joined to the policy rules by address', () => {
    const r = load(`organization: org_a
policy:
  protect: ["teams/*"]
  ignore: [{ kind: site-section, fields: [icon] }]
teams:
  - { title: Writers, protect: true }
sites:
  - title: Docs
    ignore: [visibility]
    sections:
      - path: guides
        title: Guides
        ignore: [title]
        spaces: [{ space: space_1, path: v1, protect: true }]
`);
    expect(r.issues).toEqual([]);
    const policy = r.desired!.organizations[0]!.policy;
    expect(policy.protect).toEqual([
      { address: 'teams/*', rule: 'policy.protect[0]' },
      { address: 'teams/Writers', rule: 'teams[0].protect' },
      {
        address: 'sites/Docs/sections/guides/spaces/space_1',
        rule: 'sites[0].sections[0].spaces[0].protect',
      },
    ]);
    expect(policy.ignore).toEqual([
      { kind: 'site-section', fields: ['icon'], rule: 'policy.ignore[0]' },
      { address: 'sites/Docs', fields: ['visibility'], rule: 'sites[0].ignore' },
      { address: 'sites/Docs/sections/guides', fields: ['title'], rule: 'sites[0].sections[0].ignore' },
    ]);
    // The entries themselves are as without the controls.
    expect(r.desired!.organizations[0]!.teams).toEqual([{ title: 'Writers' }]);
  });

  it.each([
    ['customFields: [{ name: owner, type: text, title: Owner, protect: true }]', 'custom-fields/owner'],
    ['teams: [{ title: Writers, protect: true }]', 'teams/Writers'],
    ['collections: [{ title: Product, protect: true }]', 'collections/Product'],
    ['spaces: [{ id: space_1, title: Guides, protect: true }]', 'spaces/space_1'],
    [
      'sites: [{ title: Docs, shareLinks: [{ name: preview, active: true, protect: true }] }]',
      'sites/Docs/share-links/preview',
    ],
    [
      'sites: [{ title: Docs, sections: [{ path: a, spaces: [{ space: s1, path: v1 }] }], sectionGroups: [{ title: G, sections: [a], protect: true }] }]',
      'sites/Docs/section-groups/G',
    ],
    [
      'sites: [{ title: Docs, spaces: [{ space: space_2, path: h, protect: true }] }]',
      'sites/Docs/spaces/space_2',
    ],
  ])('the entry of %s is addressed as the plan addresses it', (yaml, address) => {
    const r = load(`organization: org_a\n${yaml}\n`);
    expect(r.issues).toEqual([]);
    expect(r.desired!.organizations[0]!.policy.protect?.map((p) => p.address)).toEqual([address]);
  });

  it.each([
    ['maxDeletes: 3', { maxDeletes: 3 }],
    ['maxDeletes: "5%"', { maxDeletes: 10, deletes: { all: { percent: 5 } } }],
    [
      'maxDeletes: { default: 4, team: "50%" }',
      { maxDeletes: 4, deletes: { all: { count: 4 }, kinds: { team: { percent: 50 } } } },
    ],
    ['maxUpdates: "30%"', { maxDeletes: 10, updates: { all: { percent: 30 } } }],
  ])('policy { %s }', (yaml, expected) => {
    const r = load(`organization: org_a\npolicy: { ${yaml} }\n`);
    expect(r.issues).toEqual([]);
    expect(r.desired!.organizations[0]!.policy).toEqual({ prune: false, ...expected });
  });

  it.each([
    ['policy: { maxDeletes: "150%" }', 'org.yaml:2:23', /percentage from 0% to 100%/],
    ['policy: { maxDeletes: five }', 'org.yaml:2:23', /count such as 10 or a percentage/],
    ['policy: { maxUpdates: { teams: 2 } }', 'org.yaml:2:', /teams/],
    ['policy: { protect: ["sites//Docs"] }', 'org.yaml:2:', /single slashes/],
    ['policy: { ignore: [{ fields: [icon] }] }', 'org.yaml:2:', /a kind, an address, or both/],
    ['teams: [{ title: A, ignore: title }]', 'org.yaml:2:', /list of field names/],
    ['teams: [{ title: A, protect: yes }]', 'org.yaml:2:', /true or false/],
  ])('%s is a located error', (yaml, at, message) => {
    const r = load(`organization: org_a\n${yaml}\n`);
    expect(r.desired).toBeNull();
    const [issue] = r.issues;
    expect(`${issue!.file}:${issue!.line}:${issue!.column}`).toContain(at);
    expect(issue!.message).toMatch(message);
  });
});

describe('entry controls name their rules and issues as every config path is named (formatPath)', () => {
  const parsed = (text: string) => parseYamlFile('org.yaml', Buffer.from(text)) as YamlFile;
  // Each list key holds one entry with a rule (`protect: true`) and one with an issue (`protect: 1`).
  it.each([
    ['teams', 'teams[0].protect', 'teams[1].protect'],
    ['customFields', 'customFields[0].protect', 'customFields[1].protect'],
    ['section-groups', 'section-groups[0].protect', 'section-groups[1].protect'],
    // Keys no schema has, as formatPath names them: quoted where a dot would read as a step.
    ['"odd.list"', '["odd.list"][0].protect', '["odd.list"][1].protect'],
    ['"2024"', '["2024"][0].protect', '["2024"][1].protect'],
    ['"two words"', '["two words"][0].protect', '["two words"][1].protect'],
  ])('a list %s', (key, rule, issue) => {
    const r = extractEntryControls(
      parsed(`${key}:\n  - { title: A, protect: true }\n  - { title: B, protect: 1 }\n`),
    );
    expect(r.controls.protect.map((p) => p.rule)).toEqual([rule]);
    expect(r.issues.map((i) => i.path)).toEqual([issue]);
  });

  it('a nested list, and a rule for ignored fields', () => {
    const r = extractEntryControls(
      parsed(
        'sites:\n  - title: Docs\n    sections:\n      - { path: a, ignore: [title] }\n      - { path: b, ignore: [] }\n',
      ),
    );
    expect(r.controls.ignore.map((p) => p.rule)).toEqual(['sites[0].sections[0].ignore']);
    expect(r.issues.map((i) => i.path)).toEqual(['sites[0].sections[1].ignore']);
  });
});
