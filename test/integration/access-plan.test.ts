import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { commentBody } from '../../src/cli/comment.js';
import { loadConfigFromBuffers } from '../../src/config/load.js';
import type { Emulator } from '../../src/emulator/server.js';
import { makePlan } from '../../src/pipeline/plan-run.js';
import { renderJson, renderMarkdown, renderText } from '../../src/plan/index.js';
import type { DesiredState } from '../../src/reconcile/index.js';
import { baseSeed, client, withEmulator } from '../helpers/emulator.js';

/**
 * The effective-access difference in every plan (issue 29, decision 35), from the emulator over
 * HTTP: a collection's default level and a member's role change, and the plan's JSON `access`,
 * its text, its markdown and the pull-request comment say who gains what, in the same words and
 * the same counts.
 */
const YAML = `organization: org_t
members:
  - { user: c@example.com, role: edit }
collections:
  - { title: Product, defaultLevel: inherit }
`;

function load(yaml: string): DesiredState {
  const r = loadConfigFromBuffers([{ file: 'config/demo.yaml', bytes: Buffer.from(yaml) }]);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
}

describe('the access difference of a plan', () => {
  let emu: Emulator;
  let api: ApiClient;
  beforeAll(async () => {
    const seed = baseSeed(1) as { organizations: Record<string, unknown>[] };
    seed.organizations[0]!['collections'] = [{ id: 'col_product', title: 'Product' }];
    emu = await withEmulator({ seed, flavor: 'current' });
    api = client(emu, { flavor: 'current' });
  });
  afterAll(async () => {
    await api.close();
    await emu.close();
  });

  it('is in the JSON, the text, the markdown and the comment, counted once', async () => {
    const { plan } = await makePlan(api, load(YAML));
    expect(plan.errors).toEqual([]);
    const json = JSON.parse(renderJson(plan)) as { access: Record<string, unknown>[] };
    expect(json.access.map((a) => `${a['subject']}|${a['object']}|${a['before']}|${a['after']}`)).toEqual([
      'all members|collection Product|null|their organization role',
      'b@example.com|collection Product|null|edit',
      'c@example.com|collection Product|null|edit',
      'd@example.com|collection Product|null|read',
    ]);
    expect(json.access[2]).toMatchObject({ organization: 'org_t', via: 'organization role' });

    const counts = '4 to gain, 0 to lose, 0 to change';
    const text = renderText(plan);
    expect(text).toContain(`Effective access after this plan (${counts}):`);
    expect(text).toContain('  c@example.com gains edit on collection Product (via organization role)');
    const md = renderMarkdown(plan);
    expect(md).toContain(`**Effective access:** ${counts}`);
    expect(md).toContain(
      '- c\\@&#8203;example\\.com gains edit on collection *Product* (via organization role)',
    );
    expect(commentBody(plan)).toContain(`Effective access after this plan: ${counts}`);
  });

  it('a plan that changes nothing about access has no access section', async () => {
    const { plan } = await makePlan(api, load('organization: org_t\nteams:\n  - title: Writers\n'));
    expect(plan.changes).toHaveLength(1);
    expect(plan.access).toBeUndefined();
    expect(renderText(plan)).not.toContain('Effective access');
    expect(JSON.parse(renderJson(plan))).not.toHaveProperty('access');
  });
});
