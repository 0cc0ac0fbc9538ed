import { describe, expect, it } from 'vitest';
import type { Draft } from '../diff/draft.js';
import { SET_AFTER_CREATION, type Policy } from '../model/index.js';
import { type ChangeOp } from '../reconcile/index.js';
import {
  applyIgnore,
  limitChecks,
  limitOf,
  protectedDeletes,
  selectTargets,
  type Counts,
} from './controls.js';
import { checkSafety, guardVerdict } from './safety.js';
import type { PlanGuardFacts } from './types.js';

const op = (o: Record<string, unknown>) => o as unknown as ChangeOp;
const draft = (d: Partial<Draft> & Pick<Draft, 'key' | 'address'>): Draft => ({
  action: 'update',
  kind: 'site-section',
  before: {},
  after: {},
  deps: [],
  op: op({ type: 'update-section' }),
  ...d,
});

const SECTION = 'org_a/sites/Docs/sections/guides';

describe('applyIgnore: ignored fields are neither compared nor written after creation', () => {
  const update = draft({
    key: 'update:s',
    address: SECTION,
    before: { icon: 'book', title: 'Old' },
    after: { icon: 'box', title: 'Guides' },
    op: op({ type: 'update-section', section: { id: 's1' }, patch: { icon: 'box', title: 'Guides' } }),
  });
  it.each([
    {
      name: 'a kind rule drops the field from before, after and the call',
      drafts: [update],
      rules: [{ kind: 'site-section', fields: ['icon'], rule: 'policy.ignore[0]' }],
      kept: [{ before: { title: 'Old' }, after: { title: 'Guides' }, patch: { title: 'Guides' } }],
      ignored: [{ address: SECTION, fields: ['icon'], rules: ['policy.ignore[0]'] }],
    },
    {
      name: 'an update left with nothing is dropped, and still listed',
      drafts: [update],
      rules: [{ address: 'sites/Docs/**', fields: ['icon', 'title'], rule: 'sections[0].ignore' }],
      kept: [],
      ignored: [{ address: SECTION, fields: ['icon', 'title'], rules: ['sections[0].ignore'] }],
    },
    {
      name: 'a rule of another kind or address does nothing',
      drafts: [update],
      rules: [
        { kind: 'team', fields: ['icon'], rule: 'policy.ignore[0]' },
        { address: 'sites/API/**', fields: ['icon'], rule: 'policy.ignore[1]' },
      ],
      kept: [{ before: update.before, after: update.after, patch: { icon: 'box', title: 'Guides' } }],
      ignored: [],
    },
    {
      name: 'the update that completes a creation still sends the field',
      drafts: [{ ...update, before: null, note: SET_AFTER_CREATION }],
      rules: [{ kind: 'site-section', fields: ['icon'], rule: 'policy.ignore[0]' }],
      kept: [{ before: null, after: update.after, patch: { icon: 'box', title: 'Guides' } }],
      ignored: [],
    },
  ])('$name', ({ drafts, rules, kept, ignored }) => {
    const out = applyIgnore('org_a', drafts, rules);
    expect(
      out.drafts.map((d) => ({
        before: d.before,
        after: d.after,
        patch: (d.op as { patch?: unknown }).patch,
      })),
    ).toEqual(kept);
    expect(out.ignored.map(({ address, fields, rules }) => ({ address, fields, rules }))).toEqual(ignored);
  });

  it('a field the call names differently stays planned while other fields change, with a warning', () => {
    const site = draft({
      key: 'u',
      kind: 'site',
      address: 'org_a/sites/Docs',
      before: { defaultSection: 'a', title: 'A' },
      after: { defaultSection: 'b', title: 'B' },
      op: op({ type: 'update-site', patch: { defaultSiteSection: { $ref: { id: 's' } }, title: 'B' } }),
    });
    const out = applyIgnore('org_a', [site], [{ kind: 'site', fields: ['defaultSection'], rule: 'r' }]);
    expect(out.drafts[0]!.after).toEqual({ defaultSection: 'b', title: 'B' });
    expect(out.ignored).toEqual([]);
    expect(out.warnings[0]!.message).toContain('defaultSection cannot be ignored');
    // Alone, it is ignored: the whole update goes.
    const alone = applyIgnore(
      'org_a',
      [site],
      [{ kind: 'site', fields: ['defaultSection', 'title'], rule: 'r' }],
    );
    expect(alone.drafts).toEqual([]);
  });

  it('a field the call carries at its top level is left out too', () => {
    const team = draft({
      key: 'u',
      kind: 'team',
      address: 'org_a/teams/A',
      before: { title: 'A', x: 1 },
      after: { title: 'B', x: 2 },
      op: op({ type: 'update-team', title: 'B', x: 2 }),
    });
    const out = applyIgnore('org_a', [team], [{ kind: 'team', fields: ['title'], rule: 'r' }]);
    expect(out.drafts[0]!.op).toEqual({ type: 'update-team', x: 2 });
  });
});

describe('selectTargets: the targeted drafts and what they depend on', () => {
  const site = draft({ key: 'create:site', action: 'create', kind: 'site', address: 'org_a/sites/Docs' });
  const section = draft({
    key: 'create:section',
    action: 'create',
    address: SECTION,
    op: op({ type: 'create-section', site: { change: 'create:site' } }),
  });
  const team = draft({ key: 'create:team', action: 'create', kind: 'team', address: 'org_a/teams/W' });
  const old = draft({ key: 'delete:old', action: 'delete', address: 'org_a/sites/Docs/sections/old' });
  const wants = draft({ key: 'update:api', address: 'org_a/sites/Docs/sections/api', deps: ['delete:old'] });
  const all = [site, section, team, old, wants];
  it.each([
    { targets: ['sites/Docs/sections/guides'], keys: ['create:site', 'create:section'], problems: 0 },
    { targets: ['org_a/teams/*'], keys: ['create:team'], problems: 0 },
    { targets: ['teams/W', 'sites/Docs'], keys: ['create:site', 'create:team'], problems: 0 },
    {
      targets: ['sites/Docs/**'],
      keys: ['create:site', 'create:section', 'delete:old', 'update:api'],
      problems: 0,
    },
    { targets: ['sites/Nothing'], keys: [], problems: 0 },
    // A deletion is never pulled in as a dependency: the plan says what to add instead.
    { targets: ['sites/Docs/sections/api'], keys: ['update:api'], problems: 1 },
  ])('$targets', ({ targets, keys, problems }) => {
    const out = selectTargets('org_a', all, targets);
    expect(out.drafts.map((d) => d.key)).toEqual(keys);
    expect(out.problems).toHaveLength(problems);
    if (problems) expect(out.problems[0]!.message).toContain("--target 'sites/Docs/sections/old'");
  });
});

describe('thresholds: counts, percentages from a minimum population, per kind', () => {
  it.each([
    { t: { count: 3 }, population: 100, fallback: 10, limit: 3 },
    { t: { percent: 5 }, population: 100, fallback: 10, limit: 5 },
    { t: { percent: 5 }, population: 39, fallback: 10, limit: 1 },
    { t: { percent: 30 }, population: 10, fallback: null, limit: 3 },
    // Below octoDNS's 10 existing records only the count applies.
    { t: { percent: 5 }, population: 9, fallback: 10, limit: 10 },
    { t: { percent: 5 }, population: 9, fallback: null, limit: null },
  ])('$t of $population (fallback $fallback): $limit', ({ t, population, fallback, limit }) => {
    expect(limitOf(t, population, fallback)?.limit ?? null).toBe(limit);
  });

  const counts: Counts = {
    deletes: 4,
    updates: 12,
    deletesByKind: { team: 3, site: 1 },
    updatesByKind: { site: 12 },
  };
  const population = { all: 40, byKind: { team: 20, site: 20 } };
  const facts = (policy: Pick<Policy, 'maxDeletes' | 'deletes' | 'updates'>): PlanGuardFacts => ({
    organization: 'org_a',
    deletes: counts.deletes,
    creates: 1,
    maxDeletes: policy.maxDeletes,
    managedLive: population.all,
    limits: limitChecks(policy, counts, population),
  });
  it.each([
    { policy: { maxDeletes: 10 }, refused: [] },
    {
      policy: { maxDeletes: 10, deletes: { all: { percent: 5 } } },
      refused: [
        'org_a: the plan deletes 4 resources, more than policy.maxDeletes (2: "5%" of 40 managed resources) (needs --allow-deletes 4)',
      ],
    },
    {
      policy: { maxDeletes: 10, deletes: { kinds: { team: { count: 2 } } } },
      refused: [
        'org_a: the plan deletes 3 team resources, more than policy.maxDeletes.team (2) (needs --allow-deletes 3)',
      ],
    },
    {
      policy: { maxDeletes: 10, updates: { all: { percent: 30 } } },
      // 12 updates of 40 resources is 30%: allowed (more than the threshold is refused, as octoDNS does).
      refused: [],
    },
    {
      policy: { maxDeletes: 10, updates: { all: { percent: 25 } } },
      refused: [
        'org_a: the plan updates 12 resources, more than policy.maxUpdates (10: "25%" of 40 managed resources) (needs --allow-updates 12)',
      ],
    },
  ])('$policy', ({ policy, refused }) => {
    const verdict = guardVerdict([facts(policy)]);
    expect(verdict.map((r) => `${r.message} (needs ${r.override})`)).toEqual(refused);
  });

  it('--allow-deletes and --allow-updates lift their own refusals only', () => {
    const g = facts({ maxDeletes: 1, updates: { all: { count: 1 } } });
    const plan = { guards: [g] };
    expect(checkSafety(plan).map((r) => r.guard)).toEqual(['maxDeletes', 'maxUpdates']);
    expect(checkSafety(plan, 4).map((r) => r.guard)).toEqual(['maxUpdates']);
    expect(checkSafety(plan, 4, 12)).toEqual([]);
    expect(checkSafety(plan, 3, 12).map((r) => r.guard)).toEqual(['maxDeletes']);
  });
});

describe('protect: a protected deletion is refused, naming the address and the rule', () => {
  it.each([
    { protect: ['teams/*'], address: 'org_a/teams/Writers', rule: 'policy.protect[0]: "teams/*"' },
    {
      protect: ['org_a/sites/Docs'],
      address: 'org_a/sites/Docs',
      rule: 'policy.protect[0]: "org_a/sites/Docs"',
    },
    { protect: ['sites/Docs'], address: 'org_a/sites/Docs/sections/x', rule: null },
  ])('$protect against $address', ({ protect, address, rule }) => {
    const rules = protect.map((a, i) => ({ address: a, rule: `policy.protect[${i}]` }));
    const found = protectedDeletes({ protect: rules }, [{ address, kind: 'team' }]);
    expect(found[0]?.rule ?? null).toBe(rule);
    if (!rule) return;
    const [refusal] = guardVerdict([
      { organization: 'org_a', deletes: 1, creates: 0, maxDeletes: 10, managedLive: 5, protected: found },
    ]);
    expect(refusal).toMatchObject({ guard: 'protect', code: 'protected-resource', override: null });
    expect(refusal!.message).toContain(address);
    expect(refusal!.message).toContain(rule);
    // No flag lifts it.
    expect(
      checkSafety(
        {
          guards: [
            {
              organization: 'org_a',
              deletes: 1,
              creates: 0,
              maxDeletes: 10,
              managedLive: 5,
              protected: found,
            },
          ],
        },
        99,
        99,
      ),
    ).toHaveLength(1);
  });
});
