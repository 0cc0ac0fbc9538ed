import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfig, loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { exportOrganization } from '../../src/export/to-config.js';
import { readScoped } from '../../src/live/read.js';
import { everything } from '../../src/live/scope.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import type { Plan } from '../../src/plan/index.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';
import { desiredFromYaml } from '../helpers/config.js';

/**
 * Grants as config (issue 29, decision 0034): a team's access to a space, a collection and a site
 * granted, changed and revoked from YAML through plan and apply against the emulator (today's API),
 * a team created by the same plan granted after its creation and membership, the token's own
 * access never revoked, export planned back to zero changes, and the seed flavor refusing `access`.
 */
function seed(extra: { space?: unknown[]; collection?: unknown[]; site?: unknown[] } = {}) {
  const s = baseSeed(2);
  s.tokenUser = 'user_a';
  const o = (s.organizations as Record<string, unknown>[])[0]!;
  o.teams = [{ id: 'team_p', title: 'Platform', members: ['user_b'] }];
  o.collections = [
    { id: 'col_1', title: 'Product', ...(extra.collection ? { access: extra.collection } : {}) },
  ];
  (o.spaces as Record<string, unknown>[])[0]!.access = extra.space;
  o.sites = [{ id: 'site_1', title: 'Docs', ...(extra.site ? { access: extra.site } : {}) }];
  return s;
}

const config = (space: string, collection: string, site: string, teams = '') => `organization: org_t
policy:
  prune: true
teams:
  - title: Platform
    members: [b@example.com]
${teams}collections:
  - title: Product
    access: ${collection}
spaces:
  - id: space_1
    access: ${space}
sites:
  - title: Docs
    access: ${site}
`;

const desired = (text: string) => desiredFromYaml(text);

/** Each holder's grants in the emulator, as `subject=role`. */
function grants(emu: Emulator): Record<string, string[]> {
  const o = emu.state().organizations[0]!;
  const show = (access: { team?: string; user?: string; role: string }[] | undefined) =>
    (access ?? []).map((g) => `${g.team ?? g.user}=${g.role}`).sort();
  return {
    space: show(o.spaces.find((s) => s.id === 'space_1')!.access as never),
    collection: show(o.collections[0]!.access as never),
    site: show(o.sites[0]!.access as never),
  };
}

const changes = (plan: Plan) => plan.changes.map((c) => `${c.action} ${c.address}`);

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('grants against the emulator (current flavor)', () => {
  it("grants, changes and revokes a team's access to a space, a collection and a site", async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const steps: [string, string[], Record<string, string[]>][] = [
        [
          config(
            '[{ team: Platform, role: edit }]',
            '[{ team: Platform, role: comment }]',
            '[{ team: Platform, role: read }, { member: C@example.com, role: edit }]',
          ),
          [
            'create org_t/collections/Product/access/team:Platform',
            'create org_t/sites/Docs/access/member:c@example.com',
            'create org_t/sites/Docs/access/team:Platform',
            'create org_t/spaces/space_1/access/team:Platform',
          ],
          {
            space: ['team_p=edit'],
            collection: ['team_p=comment'],
            site: ['team_p=read', 'user_c=edit'],
          },
        ],
        [
          config(
            '[{ team: Platform, role: admin }]',
            '[{ team: Platform, role: review }]',
            '[{ team: Platform, role: edit }, { member: c@example.com, role: edit }]',
          ),
          [
            'update org_t/collections/Product/access/team:Platform',
            'update org_t/sites/Docs/access/team:Platform',
            'update org_t/spaces/space_1/access/team:Platform',
          ],
          {
            space: ['team_p=admin'],
            collection: ['team_p=review'],
            site: ['team_p=edit', 'user_c=edit'],
          },
        ],
        [
          config('[]', '[]', '[]'),
          [
            'delete org_t/collections/Product/access/team:Platform',
            'delete org_t/sites/Docs/access/member:c@example.com',
            'delete org_t/sites/Docs/access/team:Platform',
            'delete org_t/spaces/space_1/access/team:Platform',
          ],
          { space: [], collection: [], site: [] },
        ],
      ];
      for (const [text, expected, after] of steps) {
        const { plan } = await makePlan(api, desired(text));
        expect(plan.errors).toEqual([]);
        expect(changes(plan).sort()).toEqual(expected);
        const result = await applyPlan(plan, api);
        expect(result.ok, JSON.stringify(result.results)).toBe(true);
        expect(grants(emu)).toEqual(after);
        const again = (await makePlan(api, desired(text))).plan;
        expect(again.errors).toEqual([]);
        expect(again.changes).toEqual([]);
      }
    } finally {
      await api.close();
    }
  });

  it('reads two lists per object whose access is managed, and the token user, teams and members once', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = `organization: org_t
collections:
  - title: Product
    access: [{ team: Platform, role: read }]
spaces:
  - id: space_1
    access: [{ member: c@example.com, role: read }]
  - id: space_2
sites:
  - title: Docs
    access: [{ team: Platform, role: read }]
`;
      const before = emu.requests().length;
      await makePlan(api, desired(text));
      const reads = emu
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);
      const grantReads = reads.filter((r) => r.includes('/permissions/'));
      expect(grantReads.sort()).toEqual([
        'GET /v1/collections/col_1/permissions/teams',
        'GET /v1/collections/col_1/permissions/users',
        'GET /v1/orgs/org_t/sites/site_1/permissions/teams',
        'GET /v1/orgs/org_t/sites/site_1/permissions/users',
        'GET /v1/spaces/space_1/permissions/teams',
        'GET /v1/spaces/space_1/permissions/users',
      ]);
      for (const once of ['GET /v1/user', 'GET /v1/orgs/org_t/teams', 'GET /v1/orgs/org_t/members'])
        expect(
          reads.filter((r) => r === once),
          once,
        ).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('grants a team the same plan creates after its creation and its members', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = config(
        '[{ team: Support, role: read }]',
        '[{ team: Support, role: read }]',
        '[{ team: Support, role: read }]',
        '  - title: Support\n    members: [c@example.com]\n',
      );
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      const at = (address: string) => plan.changes.findIndex((c) => c.address === address);
      const team = plan.changes.find((c) => c.address === 'org_t/teams/Support' && c.action === 'create')!;
      const members = plan.changes.find((c) => c.kind === 'team-members')!;
      for (const grant of plan.changes.filter((c) => c.address.endsWith('/access/team:Support'))) {
        expect(grant.dependsOn).toEqual(expect.arrayContaining([team.id, members.id]));
        expect(at(grant.address)).toBeGreaterThan(at('org_t/teams/Support'));
      }
      expect(plan.changes.filter((c) => c.address.endsWith('/access/team:Support'))).toHaveLength(3);
      const result = await applyPlan(plan, api);
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      const support = emu.state().organizations[0]!.teams.find((t) => t.title === 'Support')!;
      expect(grants(emu)).toEqual({
        space: [`${support.id}=read`],
        collection: [`${support.id}=read`],
        site: [`${support.id}=read`],
      });
      expect((await makePlan(api, desired(text))).plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('refuses a grant to a team the same plan deletes', async () => {
    emu = await withEmulator({ seed: seed(), flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = `organization: org_t
policy:
  prune: true
teams: []
spaces:
  - id: space_1
    access: [{ team: Platform, role: read }]
`;
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors.map((e) => e.message)).toEqual([
        'space space_1: team "Platform" is deleted by this plan (not in teams); keep it or remove its grant',
      ]);
    } finally {
      await api.close();
    }
  });

  it("never revokes the token's own access, even when pruning", async () => {
    emu = await withEmulator({
      seed: seed({
        space: [
          { member: 'a@example.com', role: 'admin' },
          { member: 'c@example.com', role: 'read' },
        ],
      }),
      flavor: 'current',
    });
    const api = client(emu, { flavor: 'current' });
    try {
      const text = `organization: org_t
policy:
  prune: true
spaces:
  - id: space_1
    access: []
`;
      const { plan } = await makePlan(api, desired(text));
      expect(plan.errors).toEqual([]);
      expect(changes(plan)).toEqual(['delete org_t/spaces/space_1/access/member:c@example.com']);
      expect(plan.unmanaged).toContainEqual(
        expect.objectContaining({
          address: 'org_t/spaces/space_1/access/member:a@example.com',
          reason: "it is the token's own access (never revoked)",
        }),
      );
      expect((await applyPlan(plan, api)).ok).toBe(true);
      expect(grants(emu).space).toEqual(['user_a=admin']);
    } finally {
      await api.close();
    }
  });

  it('exports grants (teams by title, members by e-mail) and plans the export to zero changes', async () => {
    const grant = [
      { team: 'Platform', role: 'edit' },
      { member: 'c@example.com', role: 'read' },
    ];
    const s = seed({ space: grant, collection: grant, site: grant });
    const o = (s.organizations as Record<string, unknown>[])[0]!;
    // Export reads the spaces the sites publish.
    (o.sites as Record<string, unknown>[])[0]!.siteSpaces = [{ space: 'space_1' }];
    emu = await withEmulator({ seed: s, flavor: 'current' });
    const api = client(emu, { flavor: 'current' });
    try {
      const live = await readScoped(api, 'org_t', everything(['space_1']), { secrets: new Map() });
      const result = exportOrganization(live, undefined, new Map(), api.capabilities);
      const text = result.files.map((f) => f.text).join('\n');
      expect(text.match(/- team: Platform\n\s+role: edit/g)).toHaveLength(3);
      expect(text.match(/- member: c@example.com\n\s+role: read/g)).toHaveLength(3);
      const out = mkdtempSync(join(tmpdir(), 'docsync-grants-export-'));
      for (const f of result.files) writeFileSync(join(out, f.path.replace(/\//g, '_')), f.text);
      const loaded = await loadConfig(out);
      expect(loaded.issues).toEqual([]);
      const { plan } = await makePlan(api, loaded.desired!);
      expect(plan.errors).toEqual([]);
      expect(plan.changes).toEqual([]);
    } finally {
      await api.close();
    }
  });
});

describe('the seed flavor has no grants', () => {
  it('refuses access: of a space, a collection and a site at validation, located', () => {
    const text = config('[]', '[{ team: Platform, role: read }]', '[]');
    const r = loadConfigFromBuffers(
      [{ file: 'org.yaml', bytes: Buffer.from(text) }],
      {},
      {
        capabilities: capabilitiesOf('seed'),
      },
    );
    expect(r.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.code} ${i.message}`)).toEqual([
      'org.yaml:9:5 unsupported-by-api grants (access) are not in this API (--api-flavor seed): remove collections[].access or use --api-flavor current',
      'org.yaml:12:5 unsupported-by-api grants (access) are not in this API (--api-flavor seed): remove spaces[].access or use --api-flavor current',
      'org.yaml:15:5 unsupported-by-api grants (access) are not in this API (--api-flavor seed): remove sites[].access or use --api-flavor current',
    ]);
    expect(
      loadConfigFromBuffers(
        [{ file: 'org.yaml', bytes: Buffer.from(text) }],
        {},
        {
          capabilities: capabilitiesOf('current'),
        },
      ).issues,
    ).toEqual([]);
  });
});
