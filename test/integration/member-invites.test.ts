import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/run.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderText } from '../../src/plan/index.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { baseSeed, client, withEmulator, writes } from '../helpers/emulator.js';

/**
 * Invitations (issue 29, CONTRACT section 6): a listed e-mail that is not a member is invited with
 * its role, all of a plan's invitations in one call; then it is a member and nothing is planned.
 */
const config = `organization: org_t
members:
  - email: new.writer@example.com
    role: edit
  - user: second@example.com
    role: read
  - user: b@example.com
    role: edit
`;

function load(yaml: string): DesiredState {
  const r = loadConfigFromBuffers([{ file: 'config/demo.yaml', bytes: Buffer.from(yaml) }]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
}

describe('member invitations', () => {
  let emu: Emulator;
  let api: ApiClient;
  afterEach(async () => {
    await api.close();
    await emu.close();
  });

  describe("today's API", () => {
    beforeEach(async () => {
      emu = await withEmulator({ seed: baseSeed(1), flavor: 'current' });
      api = client(emu, { flavor: 'current' });
    });

    it('invites the e-mails that are not members in one call, then plans nothing', async () => {
      const { plan } = await makePlan(api, load(config));
      expect(plan.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
        'create org_t/members/invitations',
      ]);
      expect(renderText(plan)).toContain('new.writer@example.com (edit)');
      expect(renderText(plan)).toContain('sent again by the next apply');
      const result = await applyPlan(plan, api);
      expect(result.results.map((r) => r.status)).toEqual(['applied']);
      expect(writes(emu).map((w) => `${w.method} ${w.path}`)).toEqual(['POST /v1/orgs/org_t/invites']);
      const members = emu.state().organizations[0]!.members.map((m) => `${m.user.email}:${m.role}`);
      expect(members).toEqual(
        expect.arrayContaining(['new.writer@example.com:edit', 'second@example.com:read']),
      );
      const again = await makePlan(api, load(config));
      expect(again.plan.changes).toEqual([]);
    });

    it('a user id that is not a member is still an error (only e-mails are invited)', async () => {
      const { plan } = await makePlan(
        api,
        load('organization: org_t\nmembers:\n  - user: user_nobody\n    role: read\n'),
      );
      expect(plan.errors.map((e) => e.message).join('\n')).toMatch(/user_nobody.*not a member/);
    });
  });

  it("api.md's API cannot invite: a plan error, nothing applied", async () => {
    emu = await withEmulator({ seed: baseSeed(1) });
    api = client(emu);
    const { plan } = await makePlan(api, load(config));
    expect(plan.changes).toEqual([]);
    expect(plan.errors.map((e) => e.message).join('\n')).toMatch(/new\.writer@example\.com.*not a member/);
  });

  it('says where a member entry gives both user and email', () => {
    const r = loadConfigFromBuffers([
      {
        file: 'c.yaml',
        bytes: Buffer.from(
          'organization: o\nmembers:\n  - user: a@x.io\n    email: a@x.io\n    role: read\n',
        ),
      },
    ]);
    expect(r.desired).toBeNull();
    expect(r.issues[0]).toMatchObject({ file: 'c.yaml', line: 3 });
    expect(r.issues[0]!.message).toMatch(/either user or email/);
  });
});
