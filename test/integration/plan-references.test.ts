import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Holds } from '../../src/coord/types.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { runSync } from '../../src/pipeline/sync.js';
import { renderJson, renderText } from '../../src/plan/index.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';

/**
 * Plan-time resolution (issue 27 finding 1): a config value that names a live object nothing
 * answers is a located plan error, and nothing of that organization is applied. Before, these
 * planned cleanly and apply half-applied ("space space_nope not found", "22 applied, 1 failed").
 */
const FILE = 'config/demo.yaml';

function load(yaml: string): DesiredState {
  const r = loadConfigFromBuffers([{ file: FILE, bytes: Buffer.from(yaml) }]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
}

const seed = () => {
  const s = baseSeed(3) as { organizations: Record<string, unknown>[] };
  s.organizations[0]!['sites'] = [
    { id: 'site_old', title: 'Old', siteSpaces: [{ id: 'ss_1', space: 'space_1', path: 'one' }] },
  ];
  s.organizations[0]!['customFields'] = [{ name: 'owner', type: 'text' }];
  s.organizations[0]!['teams'] = [{ title: 'Writers' }];
  return s;
};

const hold = async (orgs: string[]): Promise<Holds> => ({
  orgs,
  gateFor: () => undefined,
  release: async () => {},
});

describe('plan-time resolution of references', () => {
  let emu: Emulator;
  let api: ApiClient;
  beforeEach(async () => {
    emu = await withEmulator({ seed: seed() });
    api = client(emu, { concurrency: 2, timeoutMs: 5000 });
  });
  afterEach(async () => {
    await api.close();
    await emu.close();
  });

  it('a site space naming a space that does not exist is a located plan error, and apply writes nothing', async () => {
    const desired = load(`organization: org_t
teams:
  - title: Writers
sites:
  - title: Docs
    sections:
      - path: guides
        spaces:
          - space: space_2
            path: two
          - space: space_1x
            path: nope
`);
    const { plan } = await makePlan(api, desired);
    expect(plan.errors).toEqual([
      {
        organization: 'org_t',
        code: 'unknown-reference',
        message: `${FILE}:11:20: site "Docs" section "guides": space space_1x does not exist in org_t; did you mean space_2?`,
        at: { file: FILE, line: 11, column: 20 },
      },
    ]);
    // Nothing of the organization is planned, so nothing of it can be half-applied.
    expect(plan.changes).toEqual([]);
    expect(renderText(plan)).toContain(`error: ${FILE}:11:20: site "Docs" section "guides": space space_1x`);
    expect(JSON.parse(renderJson(plan)).errors[0].at).toEqual({ file: FILE, line: 11, column: 20 });

    const outcome = await runSync({ api, desired, apply: true, allowDeletes: 0, hold });
    expect(outcome.result).toBe('failed');
    expect(writes(emu)).toEqual([]);
  });

  it('a team member who is not in the organization, and a value for a custom field that does not exist', async () => {
    const desired = load(`organization: org_t
spaces:
  - id: space_1
    customFields: { ownr: docs }
teams:
  - title: Writers
    members: [a@example.com, b@exampel.com]
`);
    const { plan } = await makePlan(api, desired);
    expect(plan.errors.map((e) => e.message)).toEqual([
      `${FILE}:4:21: space space_1: custom field ownr does not exist in org_t; did you mean owner?`,
      `${FILE}:7:30: team "Writers": member b@exampel.com does not exist in org_t; did you mean b@example.com?`,
    ]);
    expect(plan.changes).toEqual([]);
  });

  it('a spaces[] entry naming a space that does not exist is located, not a failed read of the organization', async () => {
    const desired = load(`organization: org_t
spaces:
  - id: space_1
    title: One
  - id: space_4
    title: Four
`);
    const { plan } = await makePlan(api, desired);
    expect(plan.errors.map((e) => [e.code, e.message])).toEqual([
      [
        'unknown-reference',
        `${FILE}:5:9: spaces[1]: space space_4 does not exist in org_t; did you mean space_1?`,
      ],
    ]);
    expect(plan.changes).toEqual([]);
  });

  it('a SAML default team and a default site name a team or site that neither live state nor the config has', async () => {
    const desired = load(`organization: org_t
settings:
  defaultContent: { site: Dcos }
saml:
  - label: okta
    defaultTeam: Writer
teams:
  - title: Writers
sites:
  - title: Docs
`);
    const { plan } = await makePlan(api, desired);
    expect(plan.errors.map((e) => e.message)).toEqual([
      `${FILE}:3:27: settings.defaultContent: site "Dcos" does not exist in org_t; did you mean "Docs"?`,
      `${FILE}:6:18: saml "okta": team "Writer" does not exist in org_t; did you mean "Writers"?`,
    ]);
    expect(plan.changes).toEqual([]);
  });

  it('a SAML default team that exists live is found even when the config does not manage teams', async () => {
    const desired = load(`organization: org_t
saml:
  - label: okta
    defaultTeam: Writers
`);
    const { plan } = await makePlan(api, desired);
    expect(plan.errors).toEqual([]);
    expect(plan.changes.map((c) => [c.action, c.kind, c.after?.['defaultTeam']])).toEqual([
      ['create', 'saml-provider', 'Writers'],
    ]);
    // The teams are read for their ids only: none is listed as unmanaged, none deleted.
    expect(plan.unmanaged.filter((u) => u.kind === 'team')).toEqual([]);
  });

  it('references the live state already proves cost no extra call, and a valid config plans as before', async () => {
    const desired = load(`organization: org_t
sites:
  - title: Old
    spaces:
      - space: space_1
        path: one
`);
    const before = emu.requests().length;
    const { plan } = await makePlan(api, desired);
    expect(plan.errors).toEqual([]);
    expect(
      emu
        .requests()
        .slice(before)
        .filter((r) => r.path.startsWith('/v1/spaces/')),
    ).toEqual([]);
  });
});
