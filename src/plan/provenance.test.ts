import { describe, expect, it } from 'vitest';
import { renderJson, renderMarkdown, renderText, type Plan } from './index.js';

/** Where what a plan shows comes from: entries of base files (extends), and who changed a drift. */
const plan = (extra: Partial<Plan>): Plan =>
  ({
    formatVersion: 1,
    organizations: ['org_a'],
    changes: [
      {
        id: 'c1',
        action: 'update',
        kind: 'team',
        address: 'org_a/teams/Support',
        before: { title: 'Help' },
        after: { title: 'Support' },
        dependsOn: [],
        op: { type: 'update-team', org: 'org_a', team: { id: 't1' }, patch: { title: 'Support' } },
      },
    ],
    summary: { create: 0, update: 1, delete: 0, move: 0 },
    unmanaged: [],
    errors: [],
    warnings: [],
    guards: [],
    refusals: [],
    checksum: 'x',
    ...extra,
  }) as Plan;

describe('provenance in every rendering', () => {
  const inherited = plan({
    inherited: [
      { organization: 'org_a', key: 'teams', identity: 'Platform', base: 'base/teams.yaml' },
      {
        organization: 'org_a',
        key: 'teams',
        identity: 'Support',
        base: 'base/teams.yaml',
        overriddenBy: 'config/a.yaml',
      },
    ],
  });
  it('lists entries taken from base files, and the ones a file replaced', () => {
    const text = renderText(inherited);
    expect(text).toContain('From base files (extends):');
    expect(text).toContain('org_a: teams "Platform" from base/teams.yaml');
    expect(text).toContain('org_a: teams "Support" of base/teams.yaml is replaced by config/a.yaml');
    expect(renderMarkdown(inherited)).toContain('From base files (extends): 2 entries');
    expect(JSON.parse(renderJson(inherited)).inherited).toHaveLength(2);
  });

  it('names who changed a drifted resource, or why nobody can be named', () => {
    const named = plan({
      attributions: {
        readAt: '2026-11-25T17:02:00Z',
        byChange: { c1: { actor: 'ann@acme.com', at: '2026-11-25T14:02:00Z', action: 'team.updated' } },
      },
    });
    expect(renderText(named)).toContain('# changed by ann@acme.com at 2026-11-25 14:02 UTC, 3 h ago');
    expect(renderMarkdown(named)).toContain('# changed by ann@acme.com at 2026-11-25 14:02 UTC, 3 h ago');
    const unknown = plan({
      attributions: { readAt: '2026-11-25T17:02:00Z', byChange: {}, unavailable: 'no audit log' },
    });
    expect(renderText(unknown)).toContain('warning: no audit log');
    expect(renderText(unknown)).not.toContain('changed by');
  });
});
