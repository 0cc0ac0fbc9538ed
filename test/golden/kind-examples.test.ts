import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/api/capabilities.js';
import { diff } from '../../src/reconcile/diff.js';
import { exampleKinds } from '../../src/kinds/example-kinds.js';
import { resourceKinds } from '../../src/kinds/registry.js';
import { buildPlan } from '../../src/plan/index.js';
import { desiredOf, exampleCase, type Variant } from '../helpers/kind-examples.js';
import { liveOfSeed } from '../helpers/live-model.js';
import { org } from './scenarios.js';

/** A kind's examples are what tests are built from (src/kinds/examples.ts): each must hold what it says. */
async function planOf(kind: (typeof exampleKinds)[number], variant: Variant) {
  const c = exampleCase(kind, variant, () => ({ config: { organization: 'org_g' }, seed: org() }));
  const desired = { organizations: [desiredOf(c.config)] };
  const live = await liveOfSeed(c.seed, c.flavor, desired);
  return buildPlan(diff(desired, live, { capabilities: capabilitiesOf(c.flavor) }));
}

describe("the kinds' examples", () => {
  it('every kind of the plan is reached by examples (its own, or those of the kind it belongs to)', () => {
    const declared = new Set(exampleKinds.map((k) => k.kind));
    // A site's structure and a team's members are planned within their holder's examples and scenarios.
    const within = [
      'site-section',
      'site-section-group',
      'section-group-membership',
      'site-space',
      'team-members',
    ];
    expect(resourceKinds.filter((k) => !declared.has(k) && !within.includes(k))).toEqual([]);
  });

  it.each(exampleKinds.map((k) => [k.kind, k] as const))(
    '%s: each pair plans no change; its changed entry plans updates only',
    async (_name, kind) => {
      const unchanged = await planOf(kind, 'unchanged');
      expect(unchanged.errors).toEqual([]);
      expect(unchanged.changes).toEqual([]);
      const update = await planOf(kind, 'update');
      expect(update.errors).toEqual([]);
      expect(update.changes.length).toBeGreaterThan(0);
      expect(update.changes.filter((c) => c.action !== 'update')).toEqual([]);
    },
  );
});
