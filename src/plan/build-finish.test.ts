import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { relationKinds } from '../kinds/registry.js';
import { SET_AFTER_CREATION } from '../model/index.js';
import type { OrgDiff } from '../reconcile/diff.js';
import type { Change } from '../reconcile/index.js';
import { rng } from '../../test/helpers/random-state.js';
import { buildPlan, extendPlan } from './build.js';
import { checksumOf } from './checksum.js';
import { countsOf } from './tally.js';
import { limitChecks, protectedDeletes } from './controls.js';
import type { Plan, PlanGuardFacts } from './types.js';
import { renderText } from './render-text.js';

/**
 * Counts how often the plan's first change is serialized (what hashing the checksum does), by a
 * `toJSON` that gives the op's own JSON: not `vi.mock`, which this suite's shared module cache
 * forbids (vitest.config.ts).
 */
function countSerializations(plan: Plan): { count: number } {
  const seen = { count: 0 };
  const op = plan.changes[0]!.op as object;
  Object.defineProperty(op, 'toJSON', {
    value(this: object) {
      seen.count += 1;
      return { ...this };
    },
  });
  return seen;
}

/**
 * The plan's checksum and guards as `finish` first computed them (issue 33 made them cheaper:
 * the checksum fed in chunks, each organization's changes grouped in one pass): the same values.
 */

type D = OrgDiff['drafts'][number];

/** The checksum as first written: one JSON line per change, hashed whole. */
function checksumAsFirstWritten(changes: readonly Change[]): string {
  const text = changes
    .map(
      (c) => `${JSON.stringify([c.id, c.action, c.kind, c.address, c.before, c.after, c.dependsOn, c.op])}\n`,
    )
    .join('');
  return createHash('sha256').update(text).digest('hex');
}

/** The guards as first written: each organization's changes found by a scan of the whole plan. */
function guardsAsFirstWritten(plan: Plan, diffs: readonly OrgDiff[]): PlanGuardFacts[] {
  return diffs.map((d): PlanGuardFacts => {
    const mine = plan.changes.filter((c) => c.address.startsWith(`${d.organization}/`));
    const counts = countsOf(mine);
    const population = { all: d.managedLiveCount, byKind: d.managedLiveByKind ?? {} };
    const ratio = d.policy.deletes !== undefined || d.policy.updates !== undefined;
    const prot = protectedDeletes(
      d.policy,
      mine.filter((c) => c.action === 'delete' && !relationKinds.has(c.kind)),
    );
    return {
      organization: d.organization,
      deletes: counts.deletes,
      creates: mine.filter((c) => c.action === 'create').length,
      maxDeletes: d.policy.maxDeletes,
      managedLive: d.managedLiveCount,
      ...(ratio ? { limits: limitChecks(d.policy, counts, population) } : {}),
      ...(prot.length > 0 ? { protected: prot } : {}),
    };
  });
}

const ACTIONS = ['create', 'update', 'delete', 'move'] as const;
const KINDS = ['team', 'site-space', 'site-section', 'section-group-membership'] as const;

/** Drafts of one organization at random addresses below `prefix` (some elsewhere, some twice). */
function randomDrafts(random: () => number, org: string, n: number, text: string): D[] {
  return Array.from({ length: n }, (_, i): D => {
    const action = ACTIONS[Math.floor(random() * ACTIONS.length)]!;
    const kind = KINDS[Math.floor(random() * KINDS.length)]!;
    // Updates share the address of a creation now and then (a creation's follow-up).
    const address = random() < 0.05 ? `${org}` : `${org}/${kind}/${Math.floor(random() * n)}`;
    return {
      key: `${org}:${i}`,
      action,
      kind,
      address,
      before: action === 'create' ? null : { title: `${text}${i}` },
      after:
        action === 'delete' ? null : { title: `${text}${i}!`, big: random() < 0.02 ? 'x'.repeat(70_000) : i },
      deps: i > 0 && random() < 0.3 ? [`${org}:${Math.floor(random() * i)}`] : [],
      ...(random() < 0.1 ? { note: SET_AFTER_CREATION } : {}),
      op: { type: 'update-team', org, team: { id: `t${i}` }, title: `${text}${i}` },
    };
  });
}

function orgDiff(organization: string, drafts: D[], random: () => number): OrgDiff {
  return {
    organization,
    drafts,
    unmanaged: [],
    problems: [],
    policy: {
      prune: true,
      maxDeletes: 5,
      ...(random() < 0.5
        ? { deletes: { all: { percent: 10 } }, updates: { kinds: { team: { count: 1 } } } }
        : {}),
      ...(random() < 0.5 ? { protect: [{ address: `${organization}/team/**`, rule: 'protect' }] } : {}),
    },
    managedLiveCount: 40,
    managedLiveByKind: { team: 10, 'site-space': 30 },
    warnings: [],
  };
}

describe('finish', () => {
  it.each([
    ['one organization', ['org_a']],
    ['several, one id the start of another', ['org_a', 'org_ab', 'org']],
    ['an id with a slash (found by prefix)', ['org', 'org/x', 'other']],
    ['the same organization twice', ['org_a', 'org_a']],
  ])('gives the checksum and guards first written (%s)', (_what, orgs) => {
    for (let seed = 1; seed <= 25; seed += 1) {
      const random = rng(seed);
      const text = seed % 3 === 0 ? 'Ünïcødé “q” \\ \n ' : 'T';
      const diffs = orgs.map((o, i) =>
        orgDiff(o, randomDrafts(random, o, 5 + seed * 3, `${text}${i}`), random),
      );
      const plan = buildPlan(diffs);
      expect(plan.errors).toEqual([]);
      expect(plan.checksum).toBe(checksumAsFirstWritten(plan.changes));
      expect(checksumOf(plan.changes)).toBe(plan.checksum);
      expect(plan.guards).toEqual(guardsAsFirstWritten(plan, diffs));
    }
  });

  it('hashes an empty plan as before', () => {
    expect(checksumOf([])).toBe(checksumAsFirstWritten([]));
  });

  it('hashes the checksum once, when it is first read, not when the plan is built or shown as text', () => {
    const random = rng(7);
    const diffs = [orgDiff('org_a', randomDrafts(random, 'org_a', 30, 'T'), random)];
    const plan = buildPlan(diffs);
    expect(plan.changes.length).toBeGreaterThan(0);
    const hashed = countSerializations(plan);
    renderText(plan);
    expect(hashed.count).toBe(0);
    const checksum = plan.checksum;
    expect(plan.checksum).toBe(checksum);
    expect(hashed.count).toBe(1);
    expect(checksum).toBe(checksumAsFirstWritten(plan.changes));
  });

  it('extends a plan as a spread does, without hashing it', () => {
    const random = rng(8);
    const plan = buildPlan([orgDiff('org_a', randomDrafts(random, 'org_a', 20, 'T'), random)]);
    const hashed = countSerializations(plan);
    const extended = extendPlan(plan, { inherited: [] });
    expect(hashed.count).toBe(0);
    const spread = { ...plan, inherited: [] };
    expect(hashed.count).toBe(1);
    expect(Object.keys(extended)).toEqual(Object.keys(spread));
    expect(JSON.stringify(extended)).toBe(JSON.stringify(spread));
  });
});
