import { anyListKinds, anyObjectKinds, anySpaceFacets, collectionKind } from '../kinds/registry.js';
import type { KindDoc } from '../kinds/types.js';
import { ACCESS_RULES, RULE_TEXT } from '../access/rules.js';

/**
 * What the configuration reference (docs/configuration.md) says about each kind beyond its keys:
 * how docsync pairs an entry with a live resource (identity), notes, and a short example. Keyed
 * by the kind's place in the config (`sites[].sections[]`), not by where its zod schema lives;
 * the keys, types, limits and descriptions come from the zod schema (through its JSON Schema).
 * A test checks that every kind of the schema has an entry here and every example is valid.
 */
export type { KindDoc } from '../kinds/types.js';

/** The operator's controls (issue 31), as the policy section's prose. */
const POLICY_NOTES = [
  '**Addresses and globs.** `protect`, `ignore[].address` and the `--target` flag name resources by their address as the plan prints it (`org_abc/sites/Developer Docs/sections/guides`); the organization prefix is optional (`sites/Docs/**` and `org_abc/sites/Docs/**` name the same resources). `*` matches within one segment, `**` any number of segments (none included: `sites/Docs/**` is the site and everything in it); every other character is itself, so titles with brackets or parentheses need no escaping.',
  '**Thresholds** (`maxDeletes`, `maxUpdates`), like octoDNS\'s `update_pcent_threshold`/`delete_pcent_threshold`: a count (`10`) or a percentage (`"5%"`) of the managed live resources, for the organization or per kind (`{ default: "5%", team: 2 }`; a kind\'s percentage is of the live resources of that kind). A plan with more is refused — the plan itself shows it (`This plan will be refused: org_abc: the plan deletes 3 team resources, more than policy.maxDeletes.team (2) (needs --allow-deletes 3)`), and `apply` and the daemon refuse it unless `--allow-deletes N` (`--allow-updates N`) covers it. As in octoDNS (`MIN_EXISTING_RECORDS`), a percentage applies only from 10 managed resources up: below, `maxDeletes` falls back to the count 10, and `maxUpdates` and per-kind percentages do not apply. Deletions count resources (ending a section\'s membership of a group is not one); updates count as the plan\'s summary does (the update that completes a creation is not one).',
  '**Protection** (`protect`), like Terraform\'s `prevent_destroy`, but kept in the policy so it still holds once an entry is removed from the config (which `prevent_destroy` cannot do): a plan that deletes or replaces a matching resource is refused, naming the address and the rule (`policy.protect[1]: "teams/*"`); no flag overrides it, only changing the rule does. Any entry may also say `protect: true`, which covers the entry while it is in the config (a replacement, or a deletion made by another entry\'s change).',
  "**Ignored fields** (`ignore`), like Terraform's `ignore_changes` and Argo CD's `ignoreDifferences`: the listed fields of matching resources are neither compared nor written once the resource exists; a creation still sends them. Any entry may also say `ignore: [title, icon]` for itself. Field names are those the plan shows. The plan lists every live difference it left alone, one line per resource, with the rule (`~ site-section org_abc/sites/Docs/sections/guides: icon (policy.ignore[0])`; in JSON, `ignored: [{ address, kind, fields, rules }]`); a drift report does not count them as drift.",
  "**Targets** (`plan|apply|drift --target ADDRESS`, repeatable, globs), like Terraform's `-target`: the plan holds only the changes of matching resources and of what they depend on (their `dependsOn`, transitively), and says it is partial (`Partial plan: only --target … and what they depend on`; JSON `partial: true, targets`). A partial plan never prunes outside its targets: when a targeted change needs a deletion outside them, the plan stops with an `outside-targets` error that says which `--target` to add. A saved partial plan (`plan --target … --out FILE`) applies with its targets (`apply --plan FILE`). Thresholds count the partial plan.",
];

export const KIND_DOCS: Record<string, KindDoc> = {
  ...Object.fromEntries([...anyObjectKinds, ...anyListKinds].flatMap((kind) => Object.entries(kind.docs))),
  policy: {
    title: 'safety policy',
    notes: POLICY_NOTES,
    example: {
      prune: true,
      maxDeletes: { default: '5%', team: 2 },
      maxUpdates: '30%',
      protect: ['sites/Developer Docs', 'teams/*'],
      ignore: [
        { kind: 'share-link', fields: ['active'] },
        { address: 'sites/Developer Docs/**', fields: ['description'] },
      ],
      syncWindows: [
        { kind: 'deny', schedule: '0 22 * * *', duration: '10h', timeZone: 'Europe/Paris' },
        { kind: 'deny', schedule: '0 0 * * sat', duration: '2d', manualSync: true },
      ],
      rules: [
        { rule: 'requireAdminTeam' },
        { rule: 'teamsOnly' },
        { rule: 'noEditForGuests' },
        { rule: 'maxAdmins', max: 2 },
      ],
    },
  },
  'policy.ignore[]': {
    title: 'ignored fields',
    identity: 'none: every rule that matches applies',
    notes: [
      'Each rule names a `kind`, an `address` glob, or both; every rule that matches a resource adds its `fields`.',
    ],
  },
  'policy.syncWindows[]': {
    title: 'sync windows',
    identity: 'none: every window counts (any open deny window blocks apply)',
    notes: [
      "Argo CD's sync windows: an open `deny` window blocks the daemon's apply; when `allow` windows exist, the daemon applies only while one is open. `manualSync: true` lets a manual sync (`docsync apply`, `POST /api/orgs/{org}/sync`) through. Drift is still checked and reported while apply is blocked; the run record says `apply skipped: …`, and the status page, `/status`, `GET /api/orgs/{org}` and `docsync_org_apply_blocked` show the windows.",
    ],
  },
  'policy.rules[]': {
    title: 'access rules',
    identity: 'none: every rule applies',
    notes: [
      "Checked offline by `validate` and `plan` (before any network call) against the `access` lists of `spaces`, `collections` and `sites` in all of the organization's files; each violation is an error at the entry or grant that breaks the rule, naming the rule and where it is written, for example `config/org.yaml:11:9: error[access-rule] spaces[0].access[1]: space space_api grants admin to member ann@acme.com; only teams may be granted (rule teamsOnly: policy.rules[0] at config/org.yaml:4:7)`.",
      ...ACCESS_RULES.map((r) => `\`${r}\`: ${RULE_TEXT[r]}.`),
      "The config alone is judged: a space's collection is the one its `parent` names, guests are the `members` listed with role null, a team's members are those its `members` lists. What the config does not say (grants of objects without an `access` list, members it does not list) is not known offline; `docsync access` shows the live truth.",
    ],
  },
  'collections[]': {
    title: 'collections',
    identity: '`title`',
    notes: [collectionKind.grants.note],
    example: [
      { title: 'Product', access: [{ team: 'Docs Writers', role: 'admin' }] },
      { title: 'APIs', parent: 'Product', defaultLevel: 'read' },
    ],
  },
  'collections[].access[]': {
    title: 'collection grants',
    identity: '`team` (title) or `member` (e-mail) within the collection',
  },
  'spaces[].access[]': {
    title: 'space grants',
    identity: '`team` (title) or `member` (e-mail) within the space',
  },
  'spaces[]': {
    title: 'existing spaces',
    identity: '`id` (docsync never creates or deletes spaces)',
    // A space's facets (its custom field values) say what they need.
    notes: anySpaceFacets.map((facet) => facet.doc.note),
    example: [
      {
        id: 'space_api',
        title: 'API Reference',
        ...Object.fromEntries(anySpaceFacets.map((facet) => [facet.key, facet.doc.example])),
      },
    ],
  },
};
